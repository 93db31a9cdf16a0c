// Which pairs of circles may touch. Box2D's convention: a shared non-zero group decides alone (positive:
// always, negative: never); otherwise each circle's category must be in the other's mask. Two circles that
// cannot move (static or kinematic) never make a contact, and a sensor only reports overlaps (events.c).
#include "world/world_internal.h"

bool cs_pair_collides(const cs_world* w, int a, int b)
{
    // Neither moves this step: two static or kinematic circles, or sleeping ones (sleep.c has woken every
    // island an awake body reaches).
    if ((w->body_type[a] != CS_BODY_DYNAMIC || w->asleep[a]) &&
        (w->body_type[b] != CS_BODY_DYNAMIC || w->asleep[b]))
    {
        return false;
    }
    if ((w->body_flags[a] | w->body_flags[b]) & CS_BODY_SENSOR)
    {
        return false;
    }
    if (w->no_collide_joints > 0 && cs_joined_without_contact(w, a, b))
    {
        return false;
    }
    int ga = w->group[a];
    if (ga != 0 && ga == w->group[b])
    {
        return ga > 0;
    }
    return (w->category[a] & w->mask[b]) != 0 && (w->category[b] & w->mask[a]) != 0;
}
