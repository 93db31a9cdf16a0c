// The viewer soak, short (docs/RELIABILITY.md "Viewer soak"; scripts/soak.sh runs the long one). The
// soak's script (scripts/soak-script.sh: per cycle a scene reload, spawns, two drags, solver switches, a
// duel forked and ended, a snapshot saved and loaded) runs in a small headless window (240x160, UI at half
// size) that still renders every frame. Memory is measured where a leak of ours would show: malloc, calloc,
// realloc and free are wrapped at link time (src/app/CMakeLists.txt) for the library's and the viewer's own
// code, and the bytes they hold are counted. At the end of cycle 3 and of cycle 9 — the same scene, the same
// point of the same actions, 1 800 frames apart — they may differ by less than a leak of one 16-byte
// allocation per frame would add (28 800 bytes). The process heap (mallinfo2) and RSS are printed beside it:
// the GL driver's own caches move them by a megabyte either way at random cycles, so they cannot hold a bound
// that tight.
#include "viewer_test.h"

#include <malloc.h>
#include <stdint.h>
#include <threads.h>

#define CYCLES       9
#define CYCLE_FRAMES 300
#define SPAWNS       5
#define LEAK_BOUND   4096 // bytes

// The live blocks our code allocated: an open-addressing table of pointer → usable size.
void* __real_malloc(size_t size);
void* __real_calloc(size_t n, size_t size);
void* __real_realloc(void* p, size_t size);
void __real_free(void* p);

#define TABLE_BITS 20
#define TABLE_SIZE (1u << TABLE_BITS)
#define TOMBSTONE  ((void*)1)
static struct
{
    void* p;
    size_t size;
} table[TABLE_SIZE];
static size_t live_bytes, live_blocks;
static bool table_full;
static mtx_t table_lock;
static once_flag table_once = ONCE_FLAG_INIT;

static void table_init(void)
{
    mtx_init(&table_lock, mtx_plain);
}

static size_t slot_of(const void* p)
{
    return (size_t)(((uintptr_t)p >> 4) * 0x9E3779B97F4A7C15ull >> (64 - TABLE_BITS));
}

static void track(void* p)
{
    if (p == NULL)
    {
        return;
    }
    call_once(&table_once, table_init);
    mtx_lock(&table_lock);
    size_t i = slot_of(p);
    for (size_t n = 0; n < TABLE_SIZE; ++n, i = (i + 1) & (TABLE_SIZE - 1))
    {
        if (table[i].p == NULL || table[i].p == TOMBSTONE)
        {
            table[i].p = p;
            table[i].size = malloc_usable_size(p);
            live_bytes += table[i].size;
            live_blocks += 1;
            mtx_unlock(&table_lock);
            return;
        }
    }
    table_full = true;
    mtx_unlock(&table_lock);
}

// Forgets p if it is ours (blocks from libc's strdup, open_memstream, ... are freed here too).
static void untrack(void* p)
{
    if (p == NULL)
    {
        return;
    }
    call_once(&table_once, table_init);
    mtx_lock(&table_lock);
    size_t i = slot_of(p);
    for (size_t n = 0; n < TABLE_SIZE && table[i].p != NULL; ++n, i = (i + 1) & (TABLE_SIZE - 1))
    {
        if (table[i].p == p)
        {
            live_bytes -= table[i].size;
            live_blocks -= 1;
            table[i].p = TOMBSTONE;
            break;
        }
    }
    mtx_unlock(&table_lock);
}

void* __wrap_malloc(size_t size)
{
    void* p = __real_malloc(size);
    track(p);
    return p;
}

void* __wrap_calloc(size_t n, size_t size)
{
    void* p = __real_calloc(n, size);
    track(p);
    return p;
}

void* __wrap_realloc(void* p, size_t size)
{
    untrack(p);
    void* q = __real_realloc(p, size);
    track(q != NULL ? q : (size == 0 ? NULL : p)); // a failed realloc leaves p allocated
    return q;
}

void __wrap_free(void* p)
{
    untrack(p);
    __real_free(p);
}

static app a;

static long rss_kib(void)
{
    FILE* f = fopen("/proc/self/status", "r");
    char line[256];
    long kib = -1;
    while (f != NULL && fgets(line, sizeof line, f) != NULL)
    {
        if (strncmp(line, "VmRSS:", 6) == 0)
        {
            kib = atol(line + 6);
        }
    }
    if (f != NULL)
    {
        fclose(f);
    }
    return kib;
}

static void test_memory_stays_flat(void** state)
{
    (void)state;
    const char* dir = fresh_dir();
    char script[4096], snap[4096], generator[4096], cmd[16384];
    snprintf(generator, sizeof generator, "%s", cs_test_source_path("scripts/soak-script.sh"));
    snprintf(script, sizeof script, "%s/soak.txt", dir);
    snprintf(snap, sizeof snap, "%s/soak-state.json", dir);
    snprintf(cmd, sizeof cmd, "bash %s %d %d %d %s %s > %s", generator, CYCLES, CYCLE_FRAMES, SPAWNS,
             cs_test_source_path("scenes"), snap, script);
    assert_int_equal(system(cmd), 0);
    viewer_start_script(&a, NULL, script, 240, 160, 0.5, dir); // as scripts/soak.sh
    size_t own[CYCLES];
    for (int cycle = 0; cycle < CYCLES; ++cycle)
    {
        viewer_frames(&a, CYCLE_FRAMES);
        own[cycle] = live_bytes;
        print_message(
            "cycle %d: ours %zu bytes in %zu blocks; process heap %zu bytes, RSS %ld KiB; %d bodies\n",
            cycle + 1, own[cycle], live_blocks, mallinfo2().uordblks, rss_kib(),
            a.world != NULL ? cs_world_body_count(a.world) : -1);
        assert_non_null(a.world);
        assert_string_equal(a.error, ""); // every scene of the script loaded
        assert_int_equal(a.exit_status, 0);
    }
    assert_int_equal(a.frame, CYCLES * CYCLE_FRAMES);
    // The actions happened: the spawned and dragged circles are in the snapshot the cycle reloaded, and
    // the duel ended.
    assert_int_equal(a.pane_count, 1);
    assert_int_equal(cs_world_stats(a.world)->step, CYCLE_FRAMES - 10);
    // Real pixels: the circles are drawn where the bodies are (the HUD and plots cover part of the view).
    unsigned char* rgba = viewer_pixels(&a);
    int shown = 0, drawn = 0;
    for (int k = 0; k < cs_world_body_count(a.world); ++k)
    {
        const unsigned char* c =
            world_pixel(&a, rgba, cs_world_body(a.world, cs_world_body_id(a.world, k)).position);
        shown += c != NULL;
        drawn += c != NULL && !is_background(c);
    }
    free(rgba);
    print_message("%d of %d body centres in the window are drawn\n", drawn, shown);
    assert_true(shown > 10 && drawn >= shown / 2);
    long growth = (long)own[CYCLES - 1] - (long)own[2];
    print_message("our heap from cycle 3 to cycle %d: %+ld bytes (bound %d)\n", CYCLES, growth, LEAK_BOUND);
    assert_false(table_full);
    assert_true(own[2] > 100000); // the counter sees the worlds, plots and renderer buffers
    assert_true(growth < LEAK_BOUND);
    app_shutdown(&a);
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_memory_stays_flat),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
