#define _GNU_SOURCE  // pipe2
#include "cw8linux.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

const uint32_t CW8_INOTIFY_CHANGE_EVENTS =
    IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB;
const uint32_t CW8_INOTIFY_GONE_EVENTS = IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED;
const uint32_t CW8_INOTIFY_APPEAR_EVENTS = IN_CREATE | IN_MOVED_TO;
const uint32_t CW8_INOTIFY_OVERFLOW = IN_Q_OVERFLOW;
const uint32_t CW8_INOTIFY_MOVE_SELF = IN_MOVE_SELF;

int cw8_timerfd_create_realtime(void) {
    return timerfd_create(CLOCK_REALTIME, TFD_CLOEXEC | TFD_NONBLOCK);
}

int cw8_timerfd_arm_absolute(int fd, int64_t seconds, int64_t nanoseconds) {
    struct itimerspec spec = {0};
    spec.it_value.tv_sec = (time_t)seconds;
    spec.it_value.tv_nsec = (long)nanoseconds;
    return timerfd_settime(fd, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, &spec, NULL);
}

int cw8_timerfd_disarm(int fd) {
    struct itimerspec spec = {0};
    return timerfd_settime(fd, 0, &spec, NULL);
}

int cw8_eventfd_create(void) {
    return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
}

int cw8_inotify_create(void) {
    return inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
}

int cw8_inotify_watch_directory(int fd, const char *path) {
    return inotify_add_watch(fd, path, CW8_INOTIFY_CHANGE_EVENTS | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR);
}

int cw8_inotify_unwatch(int fd, int wd) {
    return inotify_rm_watch(fd, wd);
}

static int fill_set(sigset_t *set, const int *signals, size_t count) {
    sigemptyset(set);
    for (size_t i = 0; i < count; i++) {
        if (sigaddset(set, signals[i]) != 0) {
            return -1;
        }
    }
    return 0;
}

int cw8_block_signals(const int *signals, size_t count) {
    sigset_t set;
    if (fill_set(&set, signals, count) != 0) return -1;
    int error = pthread_sigmask(SIG_BLOCK, &set, NULL);
    if (error != 0) {
        errno = error;
        return -1;
    }
    return 0;
}

int cw8_signalfd_create(const int *signals, size_t count) {
    sigset_t set;
    if (fill_set(&set, signals, count) != 0) return -1;
    return signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
}

int cw8_signalfd_read(int fd) {
    struct signalfd_siginfo info;
    ssize_t n;
    do {
        n = read(fd, &info, sizeof info);
    } while (n < 0 && errno == EINTR);
    if (n < 0) {
        return -1;
    }
    if (n != (ssize_t)sizeof info) {
        errno = EIO;
        return -1;
    }
    return (int)info.ssi_signo;
}

int cw8_spawn_tied(const char *path, char *const argv[], int *output) {
    int ends[2];
    if (pipe2(ends, O_CLOEXEC) != 0) return -1;
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid != 0) {
        int saved = errno;
        close(ends[1]);
        if (pid < 0) {
            close(ends[0]);
            errno = saved;
            return -1;
        }
        fcntl(ends[0], F_SETFL, O_NONBLOCK);
        *output = ends[0];
        return pid;
    }
    // The child: nothing here may take a lock another thread of the parent held at the fork.
    if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0 || getppid() != parent) _exit(127);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    signal(SIGPIPE, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGINT, SIG_DFL);
    int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (null < 0 || dup2(null, 0) < 0 || dup2(ends[1], 1) < 0 || dup2(ends[1], 2) < 0) _exit(127);
    execv(path, argv);
    _exit(127);
}

int cw8_sigrtmin(void) {
    return SIGRTMIN;
}

int cw8_flush_stdout(void) {
    errno = 0;
    if (fflush(stdout) != 0) return errno ? errno : EIO;
    if (ferror(stdout)) return errno ? errno : EIO;
    return 0;
}
