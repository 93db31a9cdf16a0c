// A contact between two circles, or between a wall and a circle, with its persistent key.
#ifndef CS_CONTACT_H
#define CS_CONTACT_H

#include <stdbool.h>
#include <stdint.h>

// Keys sort circle pairs first (a << 32 | b, a < b), then wall contacts ((2^31 + wall) << 32 | circle),
// which is the order the narrow phase emits them in, so warm starting is a merge of two sorted lists.
#define CS_WALL_KEY_BIT 0x80000000u

typedef struct cs_contact
{
    uint64_t key;
    int a;         // body index, or -1 for a wall
    int b;         // body index
    int wall;      // wall index when a == -1, else -1
    double nx, ny; // unit normal from a to b
    double px, py; // contact point, midway between the surfaces
    double gap;    // signed surface distance; < 0 is penetration
    double ra, rb; // lever arms along the normal from each centre to p (r + gap/2; 0 for a wall)
    double friction;
    double restitution;
    double normal_impulse;   // λ of the normal row after the solve (the next step's warm start)
    double friction_impulse; // λ of the friction row after the solve
    // The contact instant (contact/impact.h), set before the rows are built.
    double impact_time; // s* in [0, h] when its impulse acts (0: touching already); −1: stays open
    double bias;        // the normal row's bias: the row asks vn >= −bias
    double rebound;     // bounce: ρ, a collision from approach vn leaves with max(0, ρ − e vn) (impact.c)
    bool bounce;        // restitution applies (if it carries impulse); in the pass: it collides
    // The restitution pass (restitution.c): a pending contact's first collision is still to come. It collides
    // when `closing` (the distance along n its bodies close before it meets, at their free motion) plus
    // the bodies' position offsets closes within the step: bouncing impacts, and opening contacts (e > 0,
    // the free motion keeps them open, so only a neighbour's bounce can close them).
    bool pending;
    double closing;
    double target; // after a collision in the pass: the normal velocity it left with
} cs_contact;

#endif
