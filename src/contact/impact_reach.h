// The restitution pass's reach (impact_reach.c): the contacts an impact can reach in a step. The step's
// contacts between two dynamic bodies that carry load, touch or bounce link their bodies into components
// (static, kinematic and sleeping bodies and walls link nothing); the pass sweeps the components that hold a
// bounce, and a component grows when a contact on its edge (to a body outside) acts.
// docs/PHYSICS.md "Collisions within a step", item 7.
#ifndef CS_IMPACT_REACH_H
#define CS_IMPACT_REACH_H

#include "contact/contact.h"

#include <stdbool.h>
#include <stdint.h>

// A list entry is a contact index k as k << 1 | CS_REACH_EDGE: its bodies are in two components (one may be
// outside the pass).
#define CS_REACH_EDGE 1

// Body flags.
#define CS_REACH_REACHED 1u // on a root: its component is in the pass
#define CS_REACH_LIVE    2u // its offset belongs to this pass (zeroed when its first contact joined the list)

// The pass's workspace, grown by the world (no allocation in the step): per body parent and flags; per
// contact roots, list, spare and listed.
typedef struct cs_impact_reach
{
    int body_count;  // the world's bodies (every contact's are among them)
    int* parent;     // per body: union-find over the links (a root is its component's lowest body)
    uint8_t* flags;  // per body: reached (on a root), live (its offset belongs to this pass)
    int* roots;      // 2 per contact: the components of its bodies a and b (-1: not a dynamic body)
    int* list;       // 2 per contact: the contacts the pass sweeps, key order (entries above), then `fresh`
    int* spare;      // 2 per contact: the list's next build (during a sweep: the components it reached)
    int* next;       // 2 per contact: per component, its contacts' sides in key order (cs_reach_rebuild)
    uint8_t* listed; // per contact: in the list (a rebuild finds the contacts that join by it)
    int count;
    const int* fresh; // the contacts that joined the list at its last build (the pass releases them)
    int fresh_count;
    bool grown;   // an edge contact acted on a body outside: the list is rebuilt after the sweep
    bool members; // parent holds each component's first side, next the others (built at the first growth)
    int reached;  // the components the sweep reached (in spare) since the last build
} cs_impact_reach;

// The components of the step's contacts (nothing reached, an empty list).
void cs_reach_begin(cs_impact_reach* r, const cs_contact* contacts, int count, const double* inv_mass);

// The pass reaches contact k's component (the list follows at the next cs_reach_rebuild).
void cs_reach_seed(cs_impact_reach* r, int k);

// Edge contact k acted: the component of its other body is reached too (r->grown when it was not).
void cs_reach_link(cs_impact_reach* r, int k);

// The list of the contacts in the reached components (after the seeds, and after a sweep that grew them), and
// the contacts that joined it (fresh).
void cs_reach_rebuild(cs_impact_reach* r, int count);

// Whether the body's offset is still to be zeroed in this pass (it is live from then on).
static inline bool cs_reach_claim(cs_impact_reach* r, int body)
{
    bool fresh = (r->flags[body] & CS_REACH_LIVE) == 0;
    r->flags[body] |= CS_REACH_LIVE;
    return fresh;
}

#endif
