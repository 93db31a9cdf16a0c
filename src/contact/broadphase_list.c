// The broad phase's pairs kept across steps (broadphase.h, cs_broadphase_list): a Verlet list, the
// molecular-dynamics way of keeping a neighbour search off the steps where nothing moves much, and what
// Box2D v3's fattened boxes do for its tree.
//
// When the grid is searched with margin + skin, every pair it finds is kept (per body, its partners in
// order), each body's position and radius noted. At a later update, if no body has moved by d and grown its
// radius by g with d + g above half the skin, then a pair that was not kept — at least ra + rb + margin +
// skin apart then — is still at least ra' + rb' + margin apart now (each end closed it by at most half the
// skin): the kept pairs that pass the exact test are all of this update's pairs. They are tested with the
// grid search's own expression, in the same (a, b) order, so the pairs — and every bit after them — are
// those of a search; only the grid is not rebuilt (queries pad it by the moves since, query.c).
//
// The check is a pass over the bodies (no pair); 0.49 instead of 0.5 of the skin leaves 2 % of it for
// rounding. A body switched off (bp->active, a non-finite position) or on since the list was built, a
// change in the count of bodies or in the margin, and a non-finite radius all end it. In a world where
// everything moves (a collapsing or churning pile) a list would be rebuilt every step at the cost of a
// wider search: none is built while the last grid's fastest body (its reach beyond its radius, when the
// world gives the radii: list.base_radius) would leave the skin within two steps, and a list that served
// fewer than two updates pauses list building for 1, 2, 4 … 16 updates.
#include "contact/broadphase.h"

#include <math.h>
#include <stdlib.h>

#include "core/array.h"

#define CS_LIST_ROOM      0.49 // of the skin, per body
#define CS_LIST_PAUSE_MAX 16

void cs_broadphase_list_free(cs_broadphase_list* list)
{
    free(list->first);
    free(list->partners);
    free(list->at);
    free(list->chunk_first);
    free(list->chunk_count);
    free(list->chunk_at);
}

bool cs_broadphase_list_reserve(cs_broadphase_list* list, int count)
{
    if (list->skin_fraction > 0.0 && count + 1 > list->body_capacity)
    {
        int cap = cs_grow_capacity(list->body_capacity, count + 1);
        if (!CS_RESIZE(list->first, cap) || !CS_RESIZE(list->at, 3 * cap))
        {
            return false;
        }
        list->body_capacity = cap;
    }
    return true;
}

// Whether the list holds for these bodies: every pair closer than margin is in it.
static bool list_holds(const cs_broadphase* bp, const double* px, const double* py, const double* radius,
                       int count, double margin)
{
    const cs_broadphase_list* list = &bp->list;
    if (list->count == 0 || list->count != count || list->margin != margin)
    {
        return false;
    }
    const double limit = CS_LIST_ROOM * list->skin;
    for (int i = 0; i < count; ++i)
    {
        const double* at = list->at + 3 * i;
        if (!cs_broadphase_takes_part(bp, px, py, i))
        {
            if (!isnan(at[0]))
            {
                return false;
            }
            continue;
        }
        double dx = px[i] - at[0], dy = py[i] - at[1], grow = radius[i] - at[2];
        double room = limit - (grow > 0.0 ? grow : 0.0);
        // (at[0] NaN: it took part in no pair then; grow NaN: a non-finite radius; both fail.)
        if (!(room >= 0.0 && dx * dx + dy * dy <= room * room && grow == grow))
        {
            return false;
        }
    }
    return true;
}

bool cs_broadphase_list_use(cs_broadphase* bp, const double* px, const double* py, const double* radius,
                            int count, double margin)
{
    cs_broadphase_list* list = &bp->list;
    list->used = false;
    if (list->count == 0)
    {
        return false;
    }
    if (list_holds(bp, px, py, radius, count, margin))
    {
        list->used = true;
        list->held += 1;
        return true;
    }
    if (list->held < 2) // (a list that served one step paid its wider search, and little more)
    {
        list->pause = list->backoff > 0 ? list->backoff : 1;
        list->backoff = 2 * list->pause < CS_LIST_PAUSE_MAX ? 2 * list->pause : CS_LIST_PAUSE_MAX;
    }
    else
    {
        list->backoff = 1;
    }
    list->count = 0;
    return false;
}

double cs_broadphase_list_skin(cs_broadphase* bp, double margin)
{
    cs_broadphase_list* list = &bp->list;
    if (!(list->skin_fraction > 0.0 && list->grid_max_r > 0.0))
    {
        return 0.0; // no list wanted, or no grid yet to scale the skin by
    }
    if (list->pause > 0)
    {
        list->pause -= 1;
        return 0.0;
    }
    double skin = list->skin_fraction * list->grid_max_r;
    if (!(CS_LIST_ROOM * skin >= 2.0 * list->grid_max_travel))
    {
        return 0.0; // (the fastest body would leave the skin within two steps: a list would not pay)
    }
    // (The grid's cell must hold 2 r + margin + skin: a skin that overflows it is none.)
    return isfinite(2.0 * list->grid_max_r + margin + skin) ? skin : 0.0;
}

cs_status cs_broadphase_list_start(cs_broadphase* bp, const double* px, const double* py,
                                   const double* radius, int count, double margin, double skin, cs_error* err)
{
    cs_broadphase_list* list = &bp->list;
    if (!cs_broadphase_list_reserve(list, count))
    {
        list->count = 0;
        return cs_fail(err, CS_ERR_MEMORY, "broad phase: out of memory");
    }
    for (int i = 0; i < count; ++i)
    {
        double* at = list->at + 3 * i;
        bool part = cs_broadphase_takes_part(bp, px, py, i);
        at[0] = part ? px[i] : NAN;
        at[1] = py[i];
        at[2] = radius[i];
    }
    list->count = count;
    list->margin = margin;
    list->skin = skin;
    list->held = 0;
    list->partner_count = 0;
    return CS_OK;
}
