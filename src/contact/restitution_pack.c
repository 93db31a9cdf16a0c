// The restitution pass's compact records (restitution_pack.h): copied in, written back.
#include "contact/restitution_pack.h"

void cs_pack_claim(cs_pass_pack* pack, const cs_impact_bodies* bodies, const double* v, int body)
{
    cs_pass_body* r = pack->bodies + body;
    r->v[0] = v[3 * body];
    r->v[1] = v[3 * body + 1];
    r->v[2] = v[3 * body + 2];
    r->inv_mass = bodies->inv_mass[body];
    r->inv_inertia = bodies->inv_inertia[body];
    r->offset[0] = r->offset[1] = 0.0;
    r->moves = bodies->offset[3 * body + 2] != 0.0;
    r->moved = 0;
    r->touched = pack->tick;
    pack->claimed[pack->claimed_count++] = body;
}

void cs_pack_row(cs_pass_pack* pack, const cs_contact* contacts, int k)
{
    const cs_contact* c = contacts + k;
    cs_pass_row* r = pack->rows + k;
    const cs_pass_body* b = pack->bodies + c->b;
    double ima = c->a >= 0 ? pack->bodies[c->a].inv_mass : 0.0;
    double iia = c->a >= 0 ? pack->bodies[c->a].inv_inertia : 0.0;
    r->nx = c->nx;
    r->ny = c->ny;
    r->ra = c->ra;
    r->rb = c->rb;
    r->inv_a = 1.0 / (ima + b->inv_mass);
    r->att = ima + b->inv_mass + iia * c->ra * c->ra + b->inv_inertia * c->rb * c->rb;
    r->normal_impulse = c->normal_impulse;
    r->friction_impulse = c->friction_impulse;
    r->bias = c->bias;
    r->impact_time = c->impact_time;
    r->friction = c->friction;
    r->a = c->a;
    r->b = c->b;
    r->quiet = 0;
    r->pending = c->pending;
    r->bounce = c->bounce;
}

void cs_pack_write_back(const cs_pass_pack* pack, const int* list, int count, cs_contact* contacts, double* v)
{
    for (int i = 0; i < count; ++i)
    {
        int k = list[i] >> 1;
        const cs_pass_row* r = pack->rows + k;
        cs_contact* c = contacts + k;
        c->normal_impulse = r->normal_impulse;
        c->friction_impulse = r->friction_impulse;
        c->bias = r->bias;
        c->impact_time = r->impact_time;
        c->pending = r->pending;
        c->bounce = r->bounce;
    }
    for (int i = 0; i < pack->claimed_count; ++i)
    {
        int body = pack->claimed[i];
        const cs_pass_body* r = pack->bodies + body;
        v[3 * body] = r->v[0];
        v[3 * body + 1] = r->v[1];
        v[3 * body + 2] = r->v[2];
    }
}
