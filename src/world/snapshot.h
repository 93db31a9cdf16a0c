// The snapshot format (cs_world_save_state / cs_world_load_state, and cs_world_clone, which writes and
// reads one in memory): shared by its writer and reader. docs/RELIABILITY.md "Snapshots" describes it.
#ifndef CS_SNAPSHOT_H
#define CS_SNAPSHOT_H

#include <stdio.h>

#include "circlesim/world.h"

// 2: every slot (removed ones too) with type, filter, sensor/bullet, generation and sleep state; the
// iteration order and the free list; joints; the events' touching lists; every world setting.
#define CS_SNAPSHOT_VERSION 2

// The numbers of one "bodies" entry (one per slot, alive or removed), in this order (the file names them
// in "body_fields").
enum
{
    CS_SNAP_X,
    CS_SNAP_Y,
    CS_SNAP_ANGLE,
    CS_SNAP_VX,
    CS_SNAP_VY,
    CS_SNAP_OMEGA,
    CS_SNAP_RADIUS,
    CS_SNAP_MASS,
    CS_SNAP_FRICTION,
    CS_SNAP_RESTITUTION,
    CS_SNAP_FX,
    CS_SNAP_FY,
    CS_SNAP_TYPE,        // cs_body_type: 0 dynamic, 1 static, 2 kinematic
    CS_SNAP_ALIVE,       // 0: a removed body's slot, waiting in the free list
    CS_SNAP_GENERATION,  // the generation part of the slot's id (0..255)
    CS_SNAP_SENSOR,      // 0 / 1
    CS_SNAP_BULLET,      // 0 / 1
    CS_SNAP_CATEGORY,    // 32 bits
    CS_SNAP_MASK,        // 32 bits
    CS_SNAP_GROUP,       // a 32-bit signed integer
    CS_SNAP_ASLEEP,      // 0 / 1
    CS_SNAP_SLEEP_TIME,  // seconds it has rested
    CS_SNAP_ISLAND_NEXT, // asleep: the next slot of its island's ring; awake: -1
    CS_SNAPSHOT_BODY_FIELDS
};

enum
{
    CS_SNAPSHOT_CONTACT_FIELDS = 14,
    // An entry of "touching" / "overlaps": key high and low 32 bits, body_a, body_b, wall, point x, y.
    CS_SNAPSHOT_TOUCH_FIELDS = 7
};

extern const char* const cs_snapshot_body_fields[CS_SNAPSHOT_BODY_FIELDS];
extern const char* const cs_snapshot_contact_fields[CS_SNAPSHOT_CONTACT_FIELDS];
extern const char* const cs_snapshot_touch_fields[CS_SNAPSHOT_TOUCH_FIELDS];

// The whole snapshot to f (`name` is used in error messages). Fails (CS_ERR_VALUE) for a world holding a
// non-finite number, CS_ERR_IO when writing fails.
cs_status cs_snapshot_write(const cs_world* w, FILE* f, const char* name, cs_error* err);

// snapshot_restore.c: after the reader has filled every slot's primary fields (snapshot.h's body fields),
// joints and lists, the state that follows from them: inverse masses, counters, the dense list's places,
// the joints' per-body lists, and every alive body marked as added since the grid (queries find them).
// False when memory runs out.
bool cs_snapshot_restore_derived(cs_world* w);

#endif
