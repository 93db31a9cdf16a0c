// The Gauss-Seidel sweep skeleton: one pass over the packed rows in file order, with the row-kind fast
// paths written once and the update rule (PGS, PSOR, AMGS) a compile-time argument.
#ifndef CS_SOLVER_SWEEP_H
#define CS_SOLVER_SWEEP_H

#include "circlesim/lcp.h"
#include "solver/row_kernels.h"

#include <math.h>
#include <stdbool.h>

// Every velocity-form Gauss-Seidel method here updates row i in file order as
//     step = (J_i·v + b_i)/A_ii,   λ_i ← rule(step, λ_i, bounds),   v ← v + M⁻¹J_iᵀ Δλ_i
// and differs only in the rule. cs_sweep holds the row-kind fast paths once; a method calls it with
// its rule (a compile-time constant, so each call site is specialised) and the rule's state.
typedef enum cs_rule
{
    CS_RULE_PGS,  // λ ← clamp(λ − step)                                           (eq. (4))
    CS_RULE_PSOR, // λ ← clamp(λ − ω·step), ω in st->f                         (psor.c; ω = 1: PGS)
    CS_RULE_AMGS, // x ← x − (f_i·step + κ_i·e), e = (2/γ)x − λ, λ ← clamp((2/γ)x)  (docs/amgs.md)
    CS_RULE_AMGS_LITERAL // Method 3.2 as printed: x ← x − (f_i·step − (2/γ)κ_i·x₋), λ ← (2/γ)clamp(x)
} cs_rule;

// AMGS coefficients, with c_i = γ/(A_ii + γΩ_ii) the method's step and step = w_i/A_ii:
// f_i = c_i·A_ii (the weight of step) and κ_i = c_i·γΩ_ii (the weight of e).
//   Ω = αD (c == NULL): f_i = f and κ_i = g, constants.
//   Ω = ω̄E:            f_i = c_i·A_ii and κ_i = h·c_i, with c_i in c[] and A_ii in diag[].
typedef struct cs_rule_state
{
    double* x;          // the modulus variable per row
    const double* c;    // Ω = ω̄E: c_i per row; NULL for Ω = αD
    const double* diag; // Ω = ω̄E: A_ii per row
    double f, g, h;
    double s;          // 2/γ
    double half_gamma; // γ/2
} cs_rule_state;

// The new λ_i of row i from its step; nonneg: bounds [0, +∞), lo and hi unused.
static inline double cs_rule_apply(cs_rule rule, const cs_rule_state* st, int i, double step, double old,
                                   double lo, double hi, bool nonneg)
{
    if (rule == CS_RULE_PGS || rule == CS_RULE_PSOR)
    {
        // ω·step with ω = 1 is step exactly, so PSOR at ω = 1 is PGS bit for bit.
        double y = old - (rule == CS_RULE_PSOR ? st->f * step : step);
        return nonneg ? cs_clamp_lower_branch(y, 0.0) : cs_clamp_branch(y, lo, hi);
    }
    double x = st->x[i];
    double f = st->f, kappa = st->g;
    if (st->c != NULL)
    {
        f = st->c[i] * st->diag[i];
        kappa = st->h * st->c[i];
    }
    if (rule == CS_RULE_AMGS_LITERAL)
    {
        // The one-sided −2Ω_ii (x₋)_i term for every row and λ = (2/γ) p_BLCP(x) (docs/amgs.md (d)).
        double x_minus = x < 0.0 ? -x : 0.0;
        x -= f * step - st->s * kappa * x_minus;
        st->x[i] = x;
        return st->s * cs_clamp(x, lo, hi);
    }
    // The two-sided form (docs/amgs.md (a)), x ← x − (f·step + κ·e) with e = (2/γ)x − λ the part of y
    // the box cut off, written for y = (2/γ)x: y ← [y − (2/γ)κ·e] − (2/γ)f·step. The bracket does not
    // depend on the step, so only one multiply and one subtraction wait for it (the sweep's dependency
    // chain); x = (γ/2)y is stored for the next sweep.
    double y = st->s * x;
    y = (y - (st->s * kappa) * (y - old)) - (st->s * f) * step;
    st->x[i] = st->half_gamma * y;
    return nonneg ? cs_clamp_lower_branch(y, 0.0) : cs_clamp_branch(y, lo, hi);
}

// One row in registers: the new λ_i, with h updated. opposed: the row's halves are opposed
// (CS_PACK_OPPOSED: a circle contact's normal row, or either row of a PAIR), and its step is taken from
// their relative velocity.
static inline double cs_sweep_row(cs_rule rule, const cs_rule_state* st, const cs_packed_row* r, int i,
                                  cs_halves* h, double old, double lo, double hi, bool linear, bool nonneg,
                                  bool opposed)
{
    double step =
        opposed ? cs_halves_step_opposed(r, r->bias, h, linear) : cs_halves_step(r, r->bias, h, linear);
    double next = cs_rule_apply(rule, st, i, step, old, lo, hi, nonneg);
    cs_halves_apply(r, h, next - old, linear);
    return next;
}

// One sweep over rows [begin, end) of p in file order (a PAIR's two rows both inside).
static inline void cs_sweep(cs_rule rule, const cs_rule_state* st, const cs_lcp* p, const cs_packed_row* rows,
                            double* v, double* lambda, int begin, int end)
{
    cs_halves last = {.ia = -1, .ib = -1}; // the previous fast-path row's halves (cs_halves_carry)
    bool last_w = false;
    for (int i = begin; i < end; ++i)
    {
        const cs_packed_row* r = rows + i;
        cs_halves h;
        switch (r->kind)
        {
            case CS_PACK_NORMAL_ROW:
            {
                cs_halves_load(&h, v, r, true);
                cs_halves_carry(&h, &last, last_w, true);
                lambda[i] = cs_sweep_row(rule, st, r, i, &h, lambda[i], 0.0, INFINITY, true, true, true);
                cs_halves_store(&h, v, true);
                // Its ω were not loaded: a later row takes them from memory, where they are current.
                last = h;
                last_w = false;
                break;
            }
            case CS_PACK_NORMAL_ROW | CS_PACK_PAIR:
            {
                // Row i and its friction row i + 1 (linked to i) on the same two bodies. The friction
                // row's step after the normal row's update is its step before it plus the coupling
                // times Δλ_i (exact up to rounding), so it need not wait for the updated velocities.
                // Both steps from the halves' relative velocity (a pair's rows are opposed:
                // cs_halves_step_opposed).
                const cs_packed_row* f = r + 1;
                cs_halves_load(&h, v, r, false);
                cs_halves_carry(&h, &last, last_w, false);
                double f_step = cs_halves_step_opposed(f, f->bias, &h, false);
                double old = lambda[i];
                double n = cs_sweep_row(rule, st, r, i, &h, old, 0.0, INFINITY, true, true, true);
                lambda[i] = n;
                f_step += r->mu * (n - old);
                double limit = cs_friction_limit(f->mu, n);
                double f_old = lambda[i + 1];
                double f_next = cs_rule_apply(rule, st, i + 1, f_step, f_old, -limit, limit, false);
                cs_halves_apply(f, &h, f_next - f_old, false);
                lambda[i + 1] = f_next;
                cs_halves_store(&h, v, false);
                last = h;
                last_w = true;
                i += 1;
                break;
            }
            case CS_PACK_FRICTION_ROW:
            {
                double limit = cs_friction_limit(r->mu, lambda[r->link]); // the CURRENT λ[link]
                cs_halves_load(&h, v, r, false);
                cs_halves_carry(&h, &last, last_w, false);
                lambda[i] = cs_sweep_row(rule, st, r, i, &h, lambda[i], -limit, limit, false, false, false);
                cs_halves_store(&h, v, false);
                last = h;
                last_w = true;
                break;
            }
            default:
            {
                if (r->kind & CS_PACK_SKIP)
                {
                    break; // a row with no columns (both halves static or massless): nothing to move
                }
                double lo, hi;
                cs_pack_bounds(r, p, lambda, i, &lo, &hi);
                double old = lambda[i];
                double step = cs_pack_step_reg(r, r->bias, v, old);
                double next = cs_rule_apply(rule, st, i, step, old, lo, hi, false);
                lambda[i] = next;
                cs_pack_apply(r, next - old, v);
                last.ia = last.ib = -1; // it wrote through memory: nothing to carry
                break;
            }
        }
    }
}

#endif
