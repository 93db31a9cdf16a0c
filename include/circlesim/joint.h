// circlesim — distance joints: rows of the same box LCP as the contacts, so every solver solves both.
#ifndef CIRCLESIM_JOINT_H
#define CIRCLESIM_JOINT_H

#include "circlesim/world.h"

#ifdef __cplusplus
extern "C"
{
#endif

    // Keeps the distance between an anchor on body a and one on body b at `length`: a rigid rod (one box
    // row, bounds −∞..+∞) by default, or a rope (rope = true: one-sided, it only pulls, bounds −∞..0).
    // A spring (hertz > 0, or stiffness > 0) is the same row made soft: Lacoursière's SPOOK regularisation
    // (the LCP's reg, Σ = 4Υ/(h²k), Υ = 1/(1 + 4τ/h), τ = c/k) turns it into a spring-damper of stiffness
    // k and damping c, solved by every solver with the contacts; a rope spring only pulls (a bungee).
    // By frequency, k = m_eff (2πf)² and c = 2 ζ m_eff 2πf with m_eff the row's effective mass (Box2D
    // v3's soft constraint: the same f whatever the bodies weigh). Springs are not position-projected.
    // Anchors are in each body's frame (world coordinates for the world side, body −1). Two joined bodies
    // do not collide with each other unless collide_connected is set. What stretch the velocity solve leaves
    // is projected out after integration (nonlinear Gauss-Seidel on positions, the world's
    // position_iterations sweeps, each capped at max_correction). A joint goes with either of its bodies.
    typedef struct cs_distance_joint_def
    {
        int body_a;
        int body_b; // −1: the world
        cs_vec2 local_anchor_a;
        cs_vec2 local_anchor_b;
        double length;          // > 0 (m); default 1
        bool rope;              // default false: a rigid rod
        bool collide_connected; // default false
        double hertz;           // > 0: a spring of this natural frequency (Hz); default 0 (rigid)
        double damping_ratio;   // with hertz: ζ >= 0 (1: critical); default 0
        double stiffness;       // > 0: a spring of this k (N/m), instead of hertz; default 0
        double damping;         // with stiffness: c >= 0 (N·s/m); default 0
    } cs_distance_joint_def;

    cs_distance_joint_def cs_distance_joint_def_default(void);

    // Returns the joint's index (joints are numbered 0, 1, … in order of addition), or −1 with err set:
    // CS_ERR_USAGE for a body that is not alive or a joint of a body with itself (or of the world with
    // the world), CS_ERR_VALUE for a non-finite anchor or a length that is not finite and > 0, a spring
    // parameter that is negative or not finite, both hertz and stiffness > 0, or damping_ratio (damping)
    // without hertz (stiffness).
    int cs_world_add_distance_joint(cs_world* world, const cs_distance_joint_def* def, cs_error* err);

    typedef struct cs_joint_info
    {
        int body_a, body_b; // ids, −1 for the world
        bool alive;         // false once one of its bodies was removed
        bool rope;
        bool spring;                // hertz or stiffness > 0
        cs_vec2 anchor_a, anchor_b; // in world coordinates, at the current positions
        double length;              // rest length
        double current_length;
        double impulse; // the last step's λ (N·s, negative when pulling)
        // current − rest length after the last step's integration, before the position projection: how
        // far the velocity solve let the joint stretch (a measure of the solver on joints)
        double solve_stretch;
    } cs_joint_info;

    int cs_world_joint_count(const cs_world* world);
    cs_joint_info cs_world_joint(const cs_world* world, int index);

#ifdef __cplusplus
}
#endif

#endif
