// Writing a world's snapshot (cs_world_save_state; cs_world_clone writes one in memory): a JSON file with
// everything the next step reads, so that a run resumed from it continues bit for bit (docs/RELIABILITY.md
// "Snapshots").
//
// Every double is written with %.17g, which reads back as the same bits. Bodies, contacts and the events'
// touching lists are arrays of numbers in a fixed order (the header "body_fields" / "contact_fields" /
// "touch_fields" names them), which keeps a million-body snapshot a few hundred megabytes. Every slot is
// written, removed ones too (their generation makes the next body there get a new id, and the state hash
// reads their numbers); what follows from these numbers (inverse masses, counters, per-body joint lists)
// is not written but rebuilt (snapshot_restore.c).
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "world/snapshot.h"
#include "world/world_internal.h"

const char* const cs_snapshot_body_fields[CS_SNAPSHOT_BODY_FIELDS] = {
    "x",        "y",           "angle", "vx",    "vy",     "omega",      "radius",     "mass",
    "friction", "restitution", "fx",    "fy",    "type",   "alive",      "generation", "sensor",
    "bullet",   "category",    "mask",  "group", "asleep", "sleep_time", "island_next"};
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
const char* const cs_snapshot_touch_fields[CS_SNAPSHOT_TOUCH_FIELDS] = {
    "key_high", "key_low", "body_a", "body_b", "wall", "x", "y"};

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
    uint8_t flags = w->body_flags[i];
    double values[CS_SNAPSHOT_BODY_FIELDS] = {
        [CS_SNAP_X] = w->px[i],
        [CS_SNAP_Y] = w->py[i],
        [CS_SNAP_ANGLE] = w->angle[i],
        [CS_SNAP_VX] = w->v[3 * i],
        [CS_SNAP_VY] = w->v[3 * i + 1],
        [CS_SNAP_OMEGA] = w->v[3 * i + 2],
        [CS_SNAP_RADIUS] = w->radius[i],
        [CS_SNAP_MASS] = w->mass[i],
        [CS_SNAP_FRICTION] = w->friction[i],
        [CS_SNAP_RESTITUTION] = w->restitution[i],
        [CS_SNAP_FX] = w->fx[i],
        [CS_SNAP_FY] = w->fy[i],
        [CS_SNAP_TYPE] = w->body_type[i],
        [CS_SNAP_ALIVE] = (flags & CS_BODY_ALIVE) ? 1 : 0,
        [CS_SNAP_GENERATION] = w->generation[i],
        [CS_SNAP_SENSOR] = (flags & CS_BODY_SENSOR) ? 1 : 0,
        [CS_SNAP_BULLET] = (flags & CS_BODY_BULLET) ? 1 : 0,
        [CS_SNAP_CATEGORY] = w->category[i],
        [CS_SNAP_MASK] = w->mask[i],
        [CS_SNAP_GROUP] = w->group[i],
        [CS_SNAP_ASLEEP] = w->asleep[i],
        [CS_SNAP_SLEEP_TIME] = w->sleep_time[i],
        [CS_SNAP_ISLAND_NEXT] = w->asleep[i] ? w->island_next[i] : -1,
    };
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

static void touch_row(const cs_touch_list* l, int k, double* row)
{
    const cs_contact_event* e = l->items + k;
    double values[CS_SNAPSHOT_TOUCH_FIELDS] = {(double)(l->keys[k] >> 32),
                                               (double)(uint32_t)l->keys[k],
                                               e->body_a,
                                               e->body_b,
                                               e->wall,
                                               e->point.x,
                                               e->point.y};
    memcpy(row, values, sizeof values);
}

static cs_status not_finite(cs_error* err, const char* name, const char* what, int index, const char* field,
                            double value)
{
    return cs_fail(err, CS_ERR_VALUE, "%s: %s %d: %s is %g: a snapshot holds finite numbers only", name, what,
                   index, field, value);
}

// A world that holds a non-finite number cannot be written as JSON, and would not resume anything.
static cs_status check_finite(const cs_world* w, const char* name, cs_error* err)
{
    double row[CS_SNAPSHOT_BODY_FIELDS];
    for (int i = 0; i < w->body_count; ++i)
    {
        body_row(w, i, row);
        for (int k = 0; k < CS_SNAPSHOT_BODY_FIELDS; ++k)
        {
            if (!isfinite(row[k]))
            {
                return not_finite(err, name, "body", i, cs_snapshot_body_fields[k], row[k]);
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
                return not_finite(err, name, "contact", i, cs_snapshot_contact_fields[k], row[k]);
            }
        }
    }
    for (int i = 0; i < w->joint_count; ++i)
    {
        const cs_joint* j = w->joints + i;
        double x[] = {j->la_x,          j->la_y,      j->lb_x,    j->lb_y,    j->length, j->hertz,
                      j->damping_ratio, j->stiffness, j->damping, j->impulse, j->stretch};
        for (size_t k = 0; k < sizeof x / sizeof x[0]; ++k)
        {
            if (!isfinite(x[k]))
            {
                return not_finite(err, name, "joint", i, "a number", x[k]);
            }
        }
    }
    return CS_OK;
}

static const char* yes(bool on)
{
    return on ? "true" : "false";
}

static void put_settings(FILE* f, const cs_world* w)
{
    const cs_world_def* d = &w->def;
    const cs_solver_params* p = &d->solver_params;
    fprintf(
        f,
        "  \"world\": {\"gravity\": [%.17g, %.17g], \"time_step\": %.17g, \"speculative_margin\": %.17g,\n"
        "    \"linear_slop\": %.17g, \"baumgarte\": %.17g, \"max_correction\": %.17g,\n"
        "    \"position_iterations\": %d, \"position_tolerance\": %.17g, \"restitution_threshold\": %.17g,\n"
        "    \"hit_event_threshold\": %.17g, \"frictionless\": %s, \"sleep\": %s, \"continuous\": %s, "
        "\"row_order\": \"%s\", "
        "\"formulation\": "
        "\"%s\",\n    \"spook_stiffness\": %.17g, \"spook_damping_time\": %.17g},\n",
        d->gravity.x, d->gravity.y, d->time_step, d->speculative_margin, d->linear_slop, d->baumgarte,
        d->max_correction, d->position_iterations, d->position_tolerance, d->restitution_threshold,
        d->hit_event_threshold, yes(d->frictionless), yes(w->sleeping), yes(d->enable_continuous),
        cs_row_order_name(d->row_order), cs_formulation_name(d->formulation), d->spook_stiffness,
        d->spook_damping_time);
    fprintf(f, "  \"contact_events\": %s,\n", yes(d->contact_events));
    // A method parameter is written only for a solver that reads it: scene files refuse the others.
    unsigned flags = cs_solver_at(d->solver)->flags;
    fprintf(f,
            "  \"solver\": {\"name\": \"%s\", \"iterations\": %d, \"tolerance\": %.17g, \"tolerance_on\": "
            "\"%s\",\n"
            "    \"warm_start\": %s, \"simd\": %s",
            cs_solver_at(d->solver)->name, p->iterations, p->tolerance,
            p->tolerance_on == CS_RES_LCP ? "lcp" : "nat", yes(p->warm_start), yes(p->simd));
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
        fprintf(f, ", \"amgs_literal\": %s", yes(p->amgs_literal));
    }
    if (flags & CS_SOLVER_USES_KGS)
    {
        fprintf(f, ", \"kgs\": %d", p->kgs);
    }
    if (flags & CS_SOLVER_USES_KSM)
    {
        fprintf(f, ", \"ksm\": %d", p->ksm);
    }
    if (flags & CS_SOLVER_USES_SUBSPACE)
    {
        fprintf(f, ", \"subspace_solver\": \"%s\"", cs_subspace_solver_name(p->subspace_solver));
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

static void put_ints(FILE* f, const char* key, const int* x, int count, int first, int capacity)
{
    fprintf(f, "  \"%s\": [", key);
    for (int k = 0; k < count; ++k)
    {
        fprintf(f, k == 0 ? "%d" : k % 16 == 0 ? ",\n    %d" : ", %d", x[(first + k) % capacity]);
    }
    fprintf(f, "],\n");
}

// The slots: every one, then the order cs_world_body_id iterates the alive ones in, and the free list
// oldest first (the order new bodies get them).
static void put_bodies(FILE* f, const cs_world* w)
{
    put_names(f, "body_fields", cs_snapshot_body_fields, CS_SNAPSHOT_BODY_FIELDS);
    fprintf(f, "  \"bodies\": [");
    double row[CS_SNAPSHOT_BODY_FIELDS];
    for (int i = 0; i < w->body_count; ++i)
    {
        fprintf(f, i == 0 ? "\n    " : ",\n    ");
        body_row(w, i, row);
        put_numbers(f, row, CS_SNAPSHOT_BODY_FIELDS);
    }
    fprintf(f, "],\n");
    put_ints(f, "alive_order", w->dense, w->alive_count, 0, w->alive_count > 0 ? w->alive_count : 1);
    put_ints(f, "free_slots", w->free_ring, w->free_count, w->free_head,
             w->free_capacity > 0 ? w->free_capacity : 1);
}

static void put_contacts(FILE* f, const cs_world* w)
{
    put_names(f, "contact_fields", cs_snapshot_contact_fields, CS_SNAPSHOT_CONTACT_FIELDS);
    fprintf(f, "  \"contacts\": [");
    double row[CS_SNAPSHOT_CONTACT_FIELDS];
    for (int i = 0; i < w->contacts.count; ++i)
    {
        fprintf(f, i == 0 ? "\n    " : ",\n    ");
        contact_row(w->contacts.items + i, row);
        put_numbers(f, row, CS_SNAPSHOT_CONTACT_FIELDS);
    }
    fprintf(f, "],\n");
}

// Joints by index (a removed one keeps its place: joint indices stay what cs_world_joint reports).
static void put_joints(FILE* f, const cs_world* w)
{
    fprintf(f, "  \"joints\": [");
    for (int k = 0; k < w->joint_count; ++k)
    {
        const cs_joint* j = w->joints + k;
        fprintf(
            f,
            "%s\n    {\"a\": %d, \"b\": %d, \"anchor_a\": [%.17g, %.17g], \"anchor_b\": [%.17g, %.17g], "
            "\"length\": %.17g,\n     \"rope\": %s, \"collide\": %s, \"alive\": %s, \"hertz\": %.17g, "
            "\"damping_ratio\": %.17g, \"stiffness\": %.17g, \"damping\": %.17g,\n     \"impulse\": %.17g, "
            "\"stretch\": %.17g}",
            k == 0 ? "" : ",", j->a, j->b, j->la_x, j->la_y, j->lb_x, j->lb_y, j->length, yes(j->rope),
            yes(j->collide), yes(j->alive), j->hertz, j->damping_ratio, j->stiffness, j->damping, j->impulse,
            j->stretch);
    }
    fprintf(f, "],\n");
}

// What touched and what overlapped a sensor after the last step: the next step's begin and end events
// are the difference from these.
static void put_touch_list(FILE* f, const char* key, const cs_touch_list* l, bool last)
{
    fprintf(f, "  \"%s\": [", key);
    double row[CS_SNAPSHOT_TOUCH_FIELDS];
    for (int k = 0; k < l->count; ++k)
    {
        fprintf(f, k == 0 ? "\n    " : ",\n    ");
        touch_row(l, k, row);
        put_numbers(f, row, CS_SNAPSHOT_TOUCH_FIELDS);
    }
    fprintf(f, last ? "]\n" : "],\n");
}

cs_status cs_snapshot_write(const cs_world* w, FILE* f, const char* name, cs_error* err)
{
    cs_status st = check_finite(w, name, err);
    if (st != CS_OK)
    {
        return st;
    }
    fprintf(f, "{\n  \"circlesim_state\": %d,\n  \"step\": %lld,\n", CS_SNAPSHOT_VERSION,
            (long long)w->stats.step);
    put_settings(f, w);
    put_walls(f, w);
    put_bodies(f, w);
    put_contacts(f, w);
    put_joints(f, w);
    put_names(f, "touch_fields", cs_snapshot_touch_fields, CS_SNAPSHOT_TOUCH_FIELDS);
    put_touch_list(f, "touching", &w->events.touching, false);
    put_touch_list(f, "overlaps", &w->events.overlaps, true);
    fprintf(f, "}\n");
    if (ferror(f) != 0)
    {
        return cs_fail(err, CS_ERR_IO, "%s: write failed", name);
    }
    return CS_OK;
}

cs_status cs_world_save_state(const cs_world* w, const char* path, cs_error* err)
{
    // Checked before the file is opened: a world that cannot be written leaves no file behind.
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
    st = cs_snapshot_write(w, f, path, err);
    if (fclose(f) != 0 && st == CS_OK)
    {
        st = cs_fail(err, CS_ERR_IO, "%s: write failed", path);
    }
    return st;
}
