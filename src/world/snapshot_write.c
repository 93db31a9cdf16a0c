// Writing a world's snapshot (cs_world_save_state): a JSON file with everything the next step reads, so
// that a run resumed from it continues bit for bit (docs/RELIABILITY.md "Snapshots").
//
// Every double is written with %.17g, which reads back as the same bits. Bodies and contacts are arrays of
// numbers in a fixed order (the header "body_fields" / "contact_fields" names them), which keeps a
// million-body snapshot a few hundred megabytes.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "world/snapshot.h"
#include "world/world_internal.h"

const char* const cs_snapshot_body_fields[CS_SNAPSHOT_BODY_FIELDS] = {
    "x", "y", "angle", "vx", "vy", "omega", "radius", "mass", "friction", "restitution", "fx", "fy"};
const char* const cs_snapshot_contact_fields[CS_SNAPSHOT_CONTACT_FIELDS] = {"a",
                                                                            "b",
                                                                            "wall",
                                                                            "nx",
                                                                            "ny",
                                                                            "px",
                                                                            "py",
                                                                            "gap",
                                                                            "ra",
                                                                            "rb",
                                                                            "friction",
                                                                            "restitution",
                                                                            "normal_impulse",
                                                                            "friction_impulse"};

static void put_numbers(FILE* f, const double* x, int count)
{
    fputc('[', f);
    for (int k = 0; k < count; ++k)
    {
        fprintf(f, k == 0 ? "%.17g" : ", %.17g", x[k]);
    }
    fputc(']', f);
}

static void put_names(FILE* f, const char* key, const char* const* names, int count)
{
    fprintf(f, "  \"%s\": [", key);
    for (int k = 0; k < count; ++k)
    {
        fprintf(f, k == 0 ? "\"%s\"" : ", \"%s\"", names[k]);
    }
    fprintf(f, "],\n");
}

static void body_row(const cs_world* w, int i, double* row)
{
    double values[CS_SNAPSHOT_BODY_FIELDS] = {w->px[i],        w->py[i],          w->angle[i],  w->v[3 * i],
                                              w->v[3 * i + 1], w->v[3 * i + 2],   w->radius[i], w->mass[i],
                                              w->friction[i],  w->restitution[i], w->fx[i],     w->fy[i]};
    memcpy(row, values, sizeof values);
}

static void contact_row(const cs_contact* c, double* row)
{
    double values[CS_SNAPSHOT_CONTACT_FIELDS] = {c->a,
                                                 c->b,
                                                 c->wall,
                                                 c->nx,
                                                 c->ny,
                                                 c->px,
                                                 c->py,
                                                 c->gap,
                                                 c->ra,
                                                 c->rb,
                                                 c->friction,
                                                 c->restitution,
                                                 c->normal_impulse,
                                                 c->friction_impulse};
    memcpy(row, values, sizeof values);
}

// A world that holds a non-finite number cannot be written as JSON, and would not resume anything.
static cs_status check_finite(const cs_world* w, const char* path, cs_error* err)
{
    double row[CS_SNAPSHOT_CONTACT_FIELDS];
    for (int i = 0; i < w->body_count; ++i)
    {
        body_row(w, i, row);
        for (int k = 0; k < CS_SNAPSHOT_BODY_FIELDS; ++k)
        {
            if (!isfinite(row[k]))
            {
                return cs_fail(err, CS_ERR_VALUE,
                               "%s: body %d: %s is %g: a snapshot holds finite numbers only", path, i,
                               cs_snapshot_body_fields[k], row[k]);
            }
        }
    }
    for (int i = 0; i < w->contacts.count; ++i)
    {
        contact_row(w->contacts.items + i, row);
        for (int k = 0; k < CS_SNAPSHOT_CONTACT_FIELDS; ++k)
        {
            if (!isfinite(row[k]))
            {
                return cs_fail(err, CS_ERR_VALUE,
                               "%s: contact %d: %s is %g: a snapshot holds finite numbers only", path, i,
                               cs_snapshot_contact_fields[k], row[k]);
            }
        }
    }
    return CS_OK;
}

static void put_settings(FILE* f, const cs_world* w)
{
    const cs_world_def* d = &w->def;
    const cs_solver_params* p = &d->solver_params;
    fprintf(
        f,
        "  \"world\": {\"gravity\": [%.17g, %.17g], \"time_step\": %.17g, \"speculative_margin\": %.17g,\n"
        "    \"linear_slop\": %.17g, \"baumgarte\": %.17g, \"max_correction\": %.17g,\n"
        "    \"position_iterations\": %d, \"restitution_threshold\": %.17g, \"frictionless\": %s,\n"
        "    \"row_order\": \"%s\", \"formulation\": \"%s\", \"spook_stiffness\": %.17g,\n"
        "    \"spook_damping_time\": %.17g},\n",
        d->gravity.x, d->gravity.y, d->time_step, d->speculative_margin, d->linear_slop, d->baumgarte,
        d->max_correction, d->position_iterations, d->restitution_threshold,
        d->frictionless ? "true" : "false", cs_row_order_name(d->row_order),
        cs_formulation_name(d->formulation), d->spook_stiffness, d->spook_damping_time);
    // A method parameter is written only for a solver that reads it: scene files refuse the others.
    unsigned flags = cs_solver_at(d->solver)->flags;
    fprintf(f,
            "  \"solver\": {\"name\": \"%s\", \"iterations\": %d, \"tolerance\": %.17g, \"tolerance_on\": "
            "\"%s\",\n"
            "    \"warm_start\": %s, \"simd\": %s",
            cs_solver_at(d->solver)->name, p->iterations, p->tolerance,
            p->tolerance_on == CS_RES_LCP ? "lcp" : "nat", p->warm_start ? "true" : "false",
            p->simd ? "true" : "false");
    if (flags & CS_SOLVER_USES_ALPHA)
    {
        fprintf(f, ", \"alpha\": %.17g", p->alpha);
    }
    if (flags & CS_SOLVER_USES_GAMMA)
    {
        fprintf(f, ", \"gamma\": %.17g", p->gamma);
    }
    if (flags & CS_SOLVER_USES_RELAXATION)
    {
        fprintf(f, ", \"relaxation\": %.17g", p->relaxation);
    }
    if (flags & CS_SOLVER_USES_LITERAL)
    {
        fprintf(f, ", \"amgs_literal\": %s", p->amgs_literal ? "true" : "false");
    }
    fprintf(f, "},\n");
}

// Walls keep their normal as computed at creation: a half-plane's normal normalised again could move by
// an ulp.
static void put_walls(FILE* f, const cs_world* w)
{
    fprintf(f, "  \"walls\": [");
    for (int k = 0; k < w->wall_count; ++k)
    {
        const cs_wall* wall = w->walls + k;
        fprintf(
            f,
            "%s\n    {\"type\": \"%s\", \"p0\": [%.17g, %.17g], \"p1\": [%.17g, %.17g], \"normal\": [%.17g, "
            "%.17g],\n     \"friction\": %.17g, \"restitution\": %.17g}",
            k == 0 ? "" : ",", wall->kind == CS_WALL_HALF_PLANE ? "half_plane" : "segment", wall->p0.x,
            wall->p0.y, wall->p1.x, wall->p1.y, wall->normal.x, wall->normal.y, wall->friction,
            wall->restitution);
    }
    fprintf(f, "],\n");
}

cs_status cs_world_save_state(const cs_world* w, const char* path, cs_error* err)
{
    cs_status st = check_finite(w, path, err);
    if (st != CS_OK)
    {
        return st;
    }
    FILE* f = fopen(path, "w");
    if (f == NULL)
    {
        return cs_fail(err, CS_ERR_IO, "%s: cannot open for writing", path);
    }
    fprintf(f, "{\n  \"circlesim_state\": %d,\n  \"step\": %lld,\n", CS_SNAPSHOT_VERSION,
            (long long)w->stats.step);
    put_settings(f, w);
    put_walls(f, w);
    put_names(f, "body_fields", cs_snapshot_body_fields, CS_SNAPSHOT_BODY_FIELDS);
    fprintf(f, "  \"bodies\": [");
    double row[CS_SNAPSHOT_CONTACT_FIELDS];
    for (int i = 0; i < w->body_count; ++i)
    {
        fprintf(f, i == 0 ? "\n    " : ",\n    ");
        body_row(w, i, row);
        put_numbers(f, row, CS_SNAPSHOT_BODY_FIELDS);
    }
    fprintf(f, "],\n");
    put_names(f, "contact_fields", cs_snapshot_contact_fields, CS_SNAPSHOT_CONTACT_FIELDS);
    fprintf(f, "  \"contacts\": [");
    for (int i = 0; i < w->contacts.count; ++i)
    {
        fprintf(f, i == 0 ? "\n    " : ",\n    ");
        contact_row(w->contacts.items + i, row);
        put_numbers(f, row, CS_SNAPSHOT_CONTACT_FIELDS);
    }
    fprintf(f, "]\n}\n");
    bool bad = ferror(f) != 0;
    if (fclose(f) != 0 || bad)
    {
        return cs_fail(err, CS_ERR_IO, "%s: write failed", path);
    }
    return CS_OK;
}
