// circlesim-siconos: one run under a budget (siconos_bench.h). Neither library's solvers can be stopped from
// outside, and a factorising or pivoting method on a 1 000-row frictional problem runs for minutes (Siconos's
// fc2d Lemke 48 s on Pool 1 at step 100; circlesim's lemke 25 min on Pool 2), so each run goes in a forked
// child that SIGPROF ends after `budget` seconds of CPU time; the parent reads the result through a pipe.
// A run the timer ends has failed within budget, which is how Dolan and Moré (2002, section 2) count a
// failure: its ratio is infinite. CPU time, not wall time: seven engineers share two cores here. A child that
// blocks instead of running (it spends no CPU time) is ended by a wall-clock guard, 20 budgets + 60 s.
#include "siconos_bench.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

// The calling thread's CPU time: every solve runs on one thread (main() pins OpenBLAS to one). Not the
// process clock: on this machine's kernel a forked child's CLOCK_PROCESS_CPUTIME_ID stood still over
// millisecond solves (measured: 0 over a 3.4 ms loop), while its thread clock advanced.
double sb_cpu_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return 1e3 * (double)t.tv_sec + 1e-6 * (double)t.tv_nsec;
}

static result failed(const char* stop, const char* why)
{
    result r = {.run = true, .stop = stop};
    snprintf(r.why, sizeof r.why, "%s", why);
    return r;
}

result sb_budgeted(result (*run)(void* arg), void* arg, double budget_seconds)
{
    if (!(budget_seconds > 0.0))
    {
        return run(arg);
    }
    int fd[2];
    fflush(stdout);
    fflush(stderr);
    if (pipe(fd) != 0)
    {
        return failed(SB_STOP_ERROR, strerror(errno));
    }
    pid_t child = fork();
    if (child < 0)
    {
        close(fd[0]);
        close(fd[1]);
        return failed(SB_STOP_ERROR, strerror(errno));
    }
    if (child == 0)
    {
        close(fd[0]);
        struct itimerval timer = {
            .it_value = {.tv_sec = (time_t)budget_seconds,
                         .tv_usec = (suseconds_t)(1e6 * (budget_seconds - (double)(time_t)budget_seconds))}};
        signal(SIGPROF, SIG_DFL); // default action: the child ends
        setitimer(ITIMER_PROF, &timer, NULL);
        signal(SIGALRM, SIG_DFL);
        alarm((unsigned)(20.0 * budget_seconds) + 60u);
        result r = run(arg);
        const char* bytes = (const char*)&r;
        size_t done = 0;
        while (done < sizeof r)
        {
            ssize_t k = write(fd[1], bytes + done, sizeof r - done);
            if (k <= 0)
            {
                _exit(1);
            }
            done += (size_t)k;
        }
        _exit(0); // no exit handlers: the parent owns the streams (and LeakSanitizer's report)
    }
    close(fd[1]);
    result r;
    size_t done = 0;
    while (done < sizeof r)
    {
        ssize_t k = read(fd[0], (char*)&r + done, sizeof r - done);
        if (k < 0 && errno == EINTR)
        {
            continue;
        }
        if (k <= 0)
        {
            break;
        }
        done += (size_t)k;
    }
    close(fd[0]);
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR)
    {
    }
    if (done == sizeof r && WIFEXITED(status) && WEXITSTATUS(status) == 0)
    {
        r.stop = r.stop == NULL ? (r.solved ? SB_STOP_SOLVED : SB_STOP_ITERATIONS) : r.stop;
        return r;
    }
    char why[CS_ERROR_MAX];
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGPROF)
    {
        snprintf(why, sizeof why, "failed within budget: %g s CPU", budget_seconds);
        result t = failed(SB_STOP_TIME, why);
        t.ms = 1e3 * budget_seconds;
        return t;
    }
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
    {
        snprintf(why, sizeof why, "blocked: no result after %u s wall",
                 (unsigned)(20.0 * budget_seconds) + 60u);
        return failed(SB_STOP_ERROR, why);
    }
    snprintf(why, sizeof why, "crashed: %s %d", WIFSIGNALED(status) ? "signal" : "exit status",
             WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
    return failed(SB_STOP_ERROR, why);
}
