// circlesim-peers: the benchmark scenes of `circlesim-cli bench` run in Box2D 2.4.1 and Chipmunk 7.0.3, timed
// the same way and printed in the same CSV, so that scripts/bench-vs-peers.sh can put the engines side by
// side (docs/PERFORMANCE.md).
//
// The scenes come from src/cli/bench_scenes.c, the numbers circlesim-cli bench and the Box2D v3 program
// build theirs from (test_bench_scenes holds them to scenes/*.json body for body):
//   pool1   13 × 17 circles, r 0.21 m, 2 kg, odd rows shifted by 0.22 m, spacing 0.44 × 0.45 m, in a 6 m pool
//   pool2   the same with masses rising by row from 1 kg to 3 kg; pool1-jitter: Pool 1 moved by ≤ 1 cm
//   stacking, stacking150   30 / 150 circles (r 0.18 m, 1 kg) stacked exactly touching on a floor
//   pool-N  N circles in the pool1 layout with round(sqrt(N)) columns (the scale suite)
//   gas     20 000 elastic discs (e = 1, μ = 0, no gravity, restitution at any speed) in a closed box
//   stream-N  pool-N under a row of falling circles every 10 steps (spawned inside the timed loop)
// Materials: the scene's μ and e for every pair (each engine's mixing rule is inverted to give exactly
// those), gravity 9.80665, h = 1/60, the same velocity iterations. Where the engines differ from circlesim:
//   Box2D: float; position iterations (nonlinear Gauss-Seidel, stops early once overlap is within 3 slops)
//     get circlesim's split-impulse sweep count; sleeping off; continuous collision (TOI) off unless
//     --box2d-ccd on (circlesim has speculative contacts and no TOI phase; nothing here moves fast enough
//     to tunnel, and with it on Box2D spends most of a 5 000-circle step in TOI).
//   Chipmunk: double; no separate position iterations (bias velocities inside the same iterations);
//     collision slop set to circlesim's 1 mm; sleeping off (its default); BB-tree broad phase as shipped.
// Walls are static segments reaching far beyond the piles (neither engine has half-planes).
#include <box2d/box2d.h>
#include <chipmunk/chipmunk.h>

#include "cli/bench_scenes.h"
#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace
{

// A scene of bench_scenes.h, owned.
struct Scene
{
    cs_bench_scene spec;
    Scene() : spec()
    {
    }
    Scene(const Scene&) = delete;
    Scene& operator=(const Scene&) = delete;
    ~Scene()
    {
        cs_bench_scene_free(&spec);
    }
    // The discs a stream spawns before step `step` (none for the other scenes).
    std::vector<cs_bench_disc> row(int step) const
    {
        std::vector<cs_bench_disc> out((size_t)spec.stream_columns + 1);
        out.resize((size_t)cs_bench_stream_row(&spec, step, out.data()));
        return out;
    }
};

struct Result
{
    double seconds = 0.0; // sum of the step calls' wall times
    double contacts = 0.0;
    double broad_us = NAN, narrow_us = NAN, solver_us = NAN, position_us = NAN;
    double bytes_per_body = 0.0;
    // Quality of the same run, as circlesim-cli bench reports it: penetration of touching contacts (m: max
    // over the run, mean of each step's mean), kinetic energy after the last step minus after the first
    // (J), highest centre at the start minus at the end (m), and the final max speed (m/s). Measured
    // outside the timed Step calls.
    double max_pen = 0.0, mean_pen = 0.0, ke_drift = 0.0, top_error = 0.0, max_speed = 0.0;
    double kinetic_energy = 0.0; // J, after the last step
    int bodies = 0;              // at the end (a stream spawns some)
};

// Accumulates one step's penetrations (depths > 0) into the result.
struct PenetrationStep
{
    double sum = 0.0, max = 0.0;
    int count = 0;
    void add(double depth)
    {
        if (depth > 0.0)
        {
            sum += depth;
            max = std::max(max, depth);
            count += 1;
        }
    }
    void finish(Result& res) const
    {
        res.max_pen = std::max(res.max_pen, max);
        res.mean_pen += count > 0 ? sum / count : 0.0;
    }
};

size_t heap_in_use()
{
    struct mallinfo2 m = mallinfo2();
    return m.uordblks + m.hblkhd;
}

double now()
{
    using clock = std::chrono::steady_clock;
    return std::chrono::duration<double>(clock::now().time_since_epoch()).count();
}

// Box2D 2.4.1 --------------------------------------------------------------------------------------------
Result run_box2d(const Scene& scene, int iterations, int position_iterations, bool continuous, int steps)
{
    Result res;
    size_t heap0 = heap_in_use();
    {
        const cs_bench_scene& spec = scene.spec;
        b2World world(b2Vec2(0.0f, (float)spec.gravity_y));
        world.SetAllowSleeping(false);
        world.SetContinuousPhysics(continuous);
        b2BodyDef ground_def;
        b2Body* ground = world.CreateBody(&ground_def);
        for (int k = 0; k < spec.wall_count; ++k)
        {
            const cs_bench_wall& w = spec.walls[k];
            b2EdgeShape edge;
            edge.SetTwoSided(b2Vec2((float)w.x0, (float)w.y0), b2Vec2((float)w.x1, (float)w.y1));
            b2FixtureDef fd;
            fd.shape = &edge;
            fd.friction = (float)spec.friction;       // mixed as sqrt(fa fb), like circlesim
            fd.restitution = (float)spec.restitution; // mixed as max(ea, eb), like circlesim
            fd.restitutionThreshold = (float)spec.restitution_threshold; // mixed as min
            ground->CreateFixture(&fd);
        }
        auto add = [&](const cs_bench_disc* c, int n)
        {
            for (int i = 0; i < n; ++i)
            {
                b2BodyDef bd;
                bd.type = b2_dynamicBody;
                bd.position.Set((float)c[i].x, (float)c[i].y);
                bd.linearVelocity.Set((float)c[i].vx, (float)c[i].vy);
                b2Body* body = world.CreateBody(&bd);
                b2CircleShape shape;
                shape.m_radius = (float)c[i].r;
                b2FixtureDef fd;
                fd.shape = &shape;
                fd.density = (float)(c[i].m / (M_PI * c[i].r * c[i].r));
                fd.friction = (float)spec.friction;
                fd.restitution = (float)spec.restitution;
                fd.restitutionThreshold = (float)spec.restitution_threshold;
                body->CreateFixture(&fd);
            }
        };
        add(spec.discs, spec.count);
        double broad = 0.0, narrow = 0.0, solve = 0.0, position = 0.0, ke_first = 0.0, top0 = -INFINITY;
        auto kinetic = [&]()
        {
            double ke = 0.0;
            for (b2Body* b = world.GetBodyList(); b != nullptr; b = b->GetNext())
            {
                ke += b->GetType() == b2_dynamicBody
                          ? 0.5 * b->GetMass() * b->GetLinearVelocity().LengthSquared() +
                                0.5 * b->GetInertia() * b->GetAngularVelocity() * b->GetAngularVelocity()
                          : 0.0;
            }
            return ke;
        };
        for (b2Body* b = world.GetBodyList(); b != nullptr; b = b->GetNext())
        {
            top0 = b->GetType() == b2_dynamicBody ? std::max(top0, (double)b->GetPosition().y) : top0;
        }
        for (int s = 0; s < steps; ++s)
        {
            std::vector<cs_bench_disc> row = scene.row(s);
            double t0 = now();
            add(row.data(), (int)row.size());
            world.Step(1.0f / 60.0f, iterations, position_iterations);
            res.seconds += now() - t0;
            PenetrationStep pen;
            for (b2Contact* c = world.GetContactList(); c != nullptr; c = c->GetNext())
            {
                if (c->IsTouching())
                {
                    b2WorldManifold wm;
                    c->GetWorldManifold(&wm);
                    for (int k = 0; k < c->GetManifold()->pointCount; ++k)
                    {
                        pen.add(-wm.separations[k]);
                    }
                }
            }
            pen.finish(res);
            ke_first = s == 0 ? kinetic() : ke_first;
            const b2Profile& p = world.GetProfile(); // milliseconds
            broad += p.broadphase;
            narrow += p.collide;
            solve += p.solveInit + p.solveVelocity;
            position += p.solvePosition;
            int touching = 0;
            for (b2Contact* c = world.GetContactList(); c != nullptr; c = c->GetNext())
            {
                touching += c->IsTouching() ? 1 : 0;
            }
            res.contacts += touching;
        }
        double top1 = -INFINITY;
        for (b2Body* b = world.GetBodyList(); b != nullptr; b = b->GetNext())
        {
            if (b->GetType() == b2_dynamicBody)
            {
                top1 = std::max(top1, (double)b->GetPosition().y);
                res.max_speed = std::max(res.max_speed, (double)b->GetLinearVelocity().Length());
            }
        }
        res.kinetic_energy = kinetic();
        res.ke_drift = res.kinetic_energy - ke_first;
        res.top_error = top0 - top1;
        res.mean_pen /= steps;
        res.bodies = world.GetBodyCount() - 1; // the ground
        res.broad_us = 1e3 * broad / steps;
        res.narrow_us = 1e3 * narrow / steps;
        res.solver_us = 1e3 * solve / steps;
        res.position_us = 1e3 * position / steps;
        size_t heap1 = heap_in_use();
        res.bytes_per_body = heap1 > heap0 ? (double)(heap1 - heap0) / res.bodies : 0.0;
    }
    res.contacts /= steps;
    return res;
}

// Chipmunk 7.0.3 -----------------------------------------------------------------------------------------
struct ChipmunkCount
{
    int arbiters = 0;
    cpBody* body = nullptr;
    PenetrationStep pen;
};

void count_arbiter(cpBody* body, cpArbiter* arb, void* data)
{
    ChipmunkCount* count = static_cast<ChipmunkCount*>(data);
    cpBody *a, *b;
    cpArbiterGetBodies(arb, &a, &b);
    cpBody* other = a == body ? b : a;
    // Each arbiter once: from its dynamic body when the other is static, else from the lower address.
    if (cpArbiterGetCount(arb) > 0 && (cpBodyGetType(other) == CP_BODY_TYPE_STATIC || body < other))
    {
        count->arbiters += 1;
        for (int k = 0; k < cpArbiterGetCount(arb); ++k)
        {
            count->pen.add(-cpArbiterGetDepth(arb, k)); // depth < 0: overlapping
        }
    }
}

void count_body(cpBody* body, void* data)
{
    cpBodyEachArbiter(body, count_arbiter, data);
}

Result run_chipmunk(const Scene& scene, int iterations, int steps)
{
    Result res;
    size_t heap0 = heap_in_use();
    cpSpace* space = cpSpaceNew();
    const cs_bench_scene& spec = scene.spec;
    cpSpaceSetGravity(space, cpv(0.0, spec.gravity_y));
    cpSpaceSetIterations(space, iterations);
    cpSpaceSetCollisionSlop(space, 0.001);
    std::vector<cpShape*> shapes;
    std::vector<cpBody*> bodies;
    // Chipmunk mixes friction and elasticity as products: sqrt on each side gives the pair μ and e. It has
    // no restitution threshold (restitution at any speed).
    const double mu = std::sqrt(spec.friction), e = std::sqrt(spec.restitution);
    cpBody* ground = cpSpaceGetStaticBody(space);
    for (int k = 0; k < spec.wall_count; ++k)
    {
        const cs_bench_wall& w = spec.walls[k];
        cpShape* s = cpSpaceAddShape(space, cpSegmentShapeNew(ground, cpv(w.x0, w.y0), cpv(w.x1, w.y1), 0.0));
        cpShapeSetFriction(s, mu);
        cpShapeSetElasticity(s, e);
        shapes.push_back(s);
    }
    auto add = [&](const cs_bench_disc* c, int n)
    {
        for (int i = 0; i < n; ++i)
        {
            cpBody* body =
                cpSpaceAddBody(space, cpBodyNew(c[i].m, cpMomentForCircle(c[i].m, 0.0, c[i].r, cpvzero)));
            cpBodySetPosition(body, cpv(c[i].x, c[i].y));
            cpBodySetVelocity(body, cpv(c[i].vx, c[i].vy));
            cpShape* s = cpSpaceAddShape(space, cpCircleShapeNew(body, c[i].r, cpvzero));
            cpShapeSetFriction(s, mu);
            cpShapeSetElasticity(s, e);
            bodies.push_back(body);
            shapes.push_back(s);
        }
    };
    add(spec.discs, spec.count);
    auto kinetic = [&]()
    {
        double ke = 0.0;
        for (cpBody* b : bodies)
        {
            cpVect v = cpBodyGetVelocity(b);
            double w = cpBodyGetAngularVelocity(b);
            ke += 0.5 * cpBodyGetMass(b) * cpvlengthsq(v) + 0.5 * cpBodyGetMoment(b) * w * w;
        }
        return ke;
    };
    double ke_first = 0.0, top0 = -INFINITY, top1 = -INFINITY;
    for (cpBody* b : bodies)
    {
        top0 = std::max(top0, cpBodyGetPosition(b).y);
    }
    for (int s = 0; s < steps; ++s)
    {
        std::vector<cs_bench_disc> row = scene.row(s);
        double t0 = now();
        add(row.data(), (int)row.size());
        cpSpaceStep(space, 1.0 / 60.0);
        res.seconds += now() - t0;
        ChipmunkCount count;
        cpSpaceEachBody(space, count_body, &count);
        res.contacts += count.arbiters;
        count.pen.finish(res);
        ke_first = s == 0 ? kinetic() : ke_first;
    }
    for (cpBody* b : bodies)
    {
        top1 = std::max(top1, cpBodyGetPosition(b).y);
        res.max_speed = std::max(res.max_speed, cpvlength(cpBodyGetVelocity(b)));
    }
    res.kinetic_energy = kinetic();
    res.ke_drift = res.kinetic_energy - ke_first;
    res.top_error = top0 - top1;
    res.mean_pen /= steps;
    res.bodies = (int)bodies.size();
    size_t heap1 = heap_in_use();
    res.bytes_per_body = heap1 > heap0 ? (double)(heap1 - heap0) / res.bodies : 0.0;
    for (cpShape* s : shapes)
    {
        cpSpaceRemoveShape(space, s);
        cpShapeFree(s);
    }
    for (cpBody* b : bodies)
    {
        cpSpaceRemoveBody(space, b);
        cpBodyFree(b);
    }
    cpSpaceFree(space);
    res.contacts /= steps;
    return res;
}

// Driver ---------------------------------------------------------------------------------------------------
std::vector<std::string> split(const std::string& text)
{
    std::vector<std::string> out;
    size_t start = 0;
    while (start <= text.size())
    {
        size_t comma = text.find(',', start);
        if (comma == std::string::npos)
        {
            comma = text.size();
        }
        out.push_back(text.substr(start, comma - start));
        start = comma + 1;
    }
    return out;
}

bool parse_int(const char* opt, const std::string& text, int min, int* out)
{
    char* end = nullptr;
    long v = std::strtol(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || v < min || v > 100000000)
    {
        std::fprintf(stderr, "circlesim-peers: %s: expected an integer >= %d, got '%s'\n", opt, min,
                     text.c_str());
        return false;
    }
    *out = (int)v;
    return true;
}

void help(FILE* out)
{
    std::fprintf(
        out, "usage: circlesim-peers [options]   (the scenes of circlesim-cli bench in Box2D and Chipmunk)\n"
             "  --suite paper|scale|churn  as circlesim-cli bench (default paper)\n"
             "  --scenes LIST           pool1, pool2, pool1-jitter, stacking, stacking150, gas, pool-N,\n"
             "                          stream-N\n"
             "  --sizes LIST            circle counts of the scale suite's pools (churn: the streams')\n"
             "  --engines LIST          box2d,chipmunk (default both)\n"
             "  --iterations LIST       velocity iterations (default: the suite's, 10 and 200 / 10)\n"
             "  --position-iterations P Box2D position iterations (default 20, circlesim's split sweeps)\n"
             "  --steps N               steps per run (default 1000 / 300)\n"
             "  --repeat R              timed repeats, the median is reported (default 3)\n"
             "  --warmup N              warm-up steps before the repeats (default 60)\n"
             "  --csv FILE              CSV to FILE ('-': to stdout, instead of the table)\n");
}

} // namespace

int main(int argc, char** argv)
{
    std::string suite = "paper", csv_path;
    std::vector<std::string> scene_names, engines = {"box2d", "chipmunk"};
    std::vector<int> iterations, sizes;
    int steps = -1, repeat = 3, warmup = 60, position_iterations = 20;
    bool box2d_ccd = false;
    for (int i = 1; i < argc; ++i)
    {
        std::string a = argv[i];
        if (a == "--help" || a == "-h")
        {
            help(stdout);
            return 0;
        }
        if (i + 1 >= argc)
        {
            std::fprintf(stderr, "circlesim-peers: unknown option or missing value '%s' (see --help)\n",
                         a.c_str());
            return 2;
        }
        std::string v = argv[++i];
        bool ok = true;
        if (a == "--suite")
        {
            suite = v;
            ok = suite == "paper" || suite == "scale" || suite == "churn";
        }
        else if (a == "--scenes")
            scene_names = split(v);
        else if (a == "--engines")
            engines = split(v);
        else if (a == "--sizes" || a == "--iterations")
        {
            std::vector<int>& list = a == "--sizes" ? sizes : iterations;
            list.clear();
            for (const std::string& t : split(v))
            {
                int n = 0;
                ok = ok && parse_int(a.c_str(), t, 1, &n);
                list.push_back(n);
            }
        }
        else if (a == "--steps")
            ok = parse_int("--steps", v, 1, &steps);
        else if (a == "--repeat")
            ok = parse_int("--repeat", v, 1, &repeat);
        else if (a == "--warmup")
            ok = parse_int("--warmup", v, 0, &warmup);
        else if (a == "--position-iterations")
            ok = parse_int("--position-iterations", v, 1, &position_iterations);
        else if (a == "--csv")
            csv_path = v;
        else if (a == "--box2d-ccd")
        {
            ok = v == "on" || v == "off";
            box2d_ccd = v == "on";
        }
        else
        {
            std::fprintf(stderr, "circlesim-peers: unknown option '%s' (see --help)\n", a.c_str());
            return 2;
        }
        if (!ok)
        {
            std::fprintf(stderr, "circlesim-peers: bad value '%s' for %s\n", v.c_str(), a.c_str());
            return 2;
        }
    }
    for (const std::string& e : engines)
    {
        if (e != "box2d" && e != "chipmunk")
        {
            std::fprintf(stderr, "circlesim-peers: --engines: unknown engine '%s' (box2d, chipmunk)\n",
                         e.c_str());
            return 2;
        }
    }
    bool churn = suite == "churn";
    bool scale = churn || suite == "scale";
    if (sizes.empty())
    {
        sizes = churn ? std::vector<int>{5000} : std::vector<int>{1000, 5000, 20000, 50000, 100000};
    }
    if (iterations.empty())
    {
        iterations = scale ? std::vector<int>{10} : std::vector<int>{10, 200};
    }
    if (steps < 0)
    {
        steps = scale ? 300 : 1000;
    }
    if (scene_names.empty())
    {
        if (churn)
            scene_names.push_back("gas");
        if (scale)
            for (int n : sizes)
                scene_names.push_back((churn ? "stream-" : "pool-") + std::to_string(n));
        else
            scene_names = {"pool1", "pool2", "stacking", "stacking150"};
    }

    // Debian's Chipmunk greets on stdout at its first space ("Initializing cpSpace ... Debug Enabled"):
    // send that to stderr so stdout carries only the table or the CSV.
    std::fflush(stdout);
    int saved_stdout = dup(1);
    dup2(2, 1);
    cpSpaceFree(cpSpaceNew());
    std::fflush(stdout);
    dup2(saved_stdout, 1);
    close(saved_stdout);

    FILE* csv = nullptr;
    bool quiet = false;
    if (!csv_path.empty())
    {
        quiet = csv_path == "-";
        csv = quiet ? stdout : std::fopen(csv_path.c_str(), "w");
        if (csv == nullptr)
        {
            std::fprintf(stderr, "%s: cannot open for writing\n", csv_path.c_str());
            return 1;
        }
        std::fprintf(csv,
                     "scene,solver,alpha,iterations,steps,bodies,mean_contacts,mean_rows,seconds,us_per_step,"
                     "broadphase_us,narrowphase_us,solver_us,position_us,bytes_per_body,ns_per_step_body,"
                     "row_order,simd,max_penetration,mean_penetration,ke_drift,top_error,final_max_speed,"
                     "kinetic_energy,threads\n");
    }
    if (!quiet)
    {
        std::printf("%-14s %-16s %5s %6s %7s %8s %9s %10s %8s %8s %9s %9s %7s %8s %8s %8s %10s %9s %9s %9s\n",
                    "scene", "engine", "iter", "steps", "bodies", "contacts", "seconds", "us/step", "broad",
                    "narrow", "solver", "position", "B/body", "ns/st/b", "maxpen mm", "meanpen", "KE drift J",
                    "top err mm", "vmax m/s", "KE J");
    }
    for (const std::string& name : scene_names)
    {
        Scene scene;
        if (!cs_bench_scene_make(name.c_str(), &scene.spec))
        {
            std::fprintf(stderr, "circlesim-peers: unknown scene '%s'\n", name.c_str());
            return 2;
        }
        for (int it : iterations)
        {
            for (const std::string& engine : engines)
            {
                auto run = [&](int n)
                {
                    return engine == "box2d" ? run_box2d(scene, it, position_iterations, box2d_ccd, n)
                                             : run_chipmunk(scene, it, n);
                };
                if (warmup > 0)
                {
                    run(warmup);
                }
                std::vector<Result> runs;
                for (int r = 0; r < repeat; ++r)
                {
                    runs.push_back(run(steps));
                }
                double bytes = runs[0].bytes_per_body;
                std::sort(runs.begin(), runs.end(),
                          [](const Result& x, const Result& y) { return x.seconds < y.seconds; });
                Result m = runs[(runs.size() - 1) / 2];
                int bodies = m.bodies;
                double us = 1e6 * m.seconds / steps;
                std::string label = engine == "box2d" ? "box2d-2.4.1" : "chipmunk-7.0.3";
                if (!quiet)
                {
                    auto cell = [](double x)
                    {
                        char buffer[32];
                        std::snprintf(buffer, sizeof buffer, "%.2f", x);
                        return std::isnan(x) ? std::string("-") : std::string(buffer);
                    };
                    std::printf(
                        "%-14s %-16s %5d %6d %7d %8.1f %9.3f %10.2f %8s %8s %9s %9s %7.0f %8.1f %8.3f "
                        "%8.3f %10.3g %9.2f %9.2g %9.2g\n",
                        name.c_str(), label.c_str(), it, steps, bodies, m.contacts, m.seconds, us,
                        cell(m.broad_us).c_str(), cell(m.narrow_us).c_str(), cell(m.solver_us).c_str(),
                        cell(m.position_us).c_str(), bytes, 1e3 * us / bodies, 1e3 * m.max_pen,
                        1e3 * m.mean_pen, m.ke_drift, 1e3 * m.top_error, m.max_speed, m.kinetic_energy);
                    std::fflush(stdout);
                }
                if (csv != nullptr)
                {
                    auto field = [](double x) { return std::isnan(x) ? std::string() : std::to_string(x); };
                    std::fprintf(
                        csv,
                        "%s,%s,,%d,%d,%d,%.2f,%.2f,%.6f,%.3f,%s,%s,%s,%s,%.0f,%.2f,,,%.6e,%.6e,%.6e,%.6e,"
                        "%.6e,%.6e,1\n",
                        name.c_str(), label.c_str(), it, steps, bodies, m.contacts, 2.0 * m.contacts,
                        m.seconds, us, field(m.broad_us).c_str(), field(m.narrow_us).c_str(),
                        field(m.solver_us).c_str(), field(m.position_us).c_str(), bytes, 1e3 * us / bodies,
                        m.max_pen, m.mean_pen, m.ke_drift, m.top_error, m.max_speed, m.kinetic_energy);
                    std::fflush(csv);
                }
            }
        }
    }
    if (csv != nullptr && csv != stdout)
    {
        std::fclose(csv);
    }
    return 0;
}
