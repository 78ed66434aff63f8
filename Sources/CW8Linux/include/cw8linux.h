// Linux calls that Glibc's Swift module does not export (timerfd, signalfd, eventfd, the signal mask, SIGRTMIN)
// or exports only partly (inotify's event bits), stdout's flush, and a child process tied to its thread, as small
// documented C functions. Every function returns -1 and sets errno on failure, like the call it wraps, so Swift reads errno the same way for all of them.
#pragma once

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

/// The inotify events that can change a watched file or the path to it: IN_CLOSE_WRITE | IN_MOVED_TO |
/// IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB. IN_MODIFY is left out on purpose: it fires on every
/// write() while a file is being written, and IN_CLOSE_WRITE follows once the writer is done.
extern const uint32_t CW8_INOTIFY_CHANGE_EVENTS;
/// IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED: the watched directory itself went away or its watch ended.
extern const uint32_t CW8_INOTIFY_GONE_EVENTS;
/// IN_CREATE | IN_MOVED_TO: a name appeared in the watched directory.
extern const uint32_t CW8_INOTIFY_APPEAR_EVENTS;
/// IN_Q_OVERFLOW: the kernel dropped events, so anything may have changed.
extern const uint32_t CW8_INOTIFY_OVERFLOW;
/// IN_MOVE_SELF: the watched directory was renamed; its watch follows the inode, not the path.
extern const uint32_t CW8_INOTIFY_MOVE_SELF;

/// `timerfd_create(CLOCK_REALTIME, TFD_CLOEXEC | TFD_NONBLOCK)`.
int cw8_timerfd_create_realtime(void);

/// `timerfd_settime(fd, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, ...)`: fire once when CLOCK_REALTIME
/// reaches `seconds.nanoseconds` since 1970. The timer keeps counting through a suspend, and a read() fails
/// with ECANCELED when someone sets the clock while it is armed.
int cw8_timerfd_arm_absolute(int fd, int64_t seconds, int64_t nanoseconds);

/// `timerfd_settime(fd, 0, ...)` with a zero `it_value`: disarm the timer and clear a pending expiry.
int cw8_timerfd_disarm(int fd);

/// `eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)`.
int cw8_eventfd_create(void);

/// `inotify_init1(IN_CLOEXEC | IN_NONBLOCK)`.
int cw8_inotify_create(void);

/// `inotify_add_watch(fd, path, CW8_INOTIFY_CHANGE_EVENTS | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)`.
/// Returns the watch descriptor; adding a directory that is already watched returns its existing descriptor.
int cw8_inotify_watch_directory(int fd, const char *path);

/// `inotify_rm_watch(fd, wd)`.
int cw8_inotify_unwatch(int fd, int wd);

/// `pthread_sigmask(SIG_BLOCK, ...)` for `count` signal numbers, in the calling thread only.
/// Unlike pthread_sigmask itself, returns -1 and sets errno (EINVAL for a number that is not a signal).
int cw8_block_signals(const int *signals, size_t count);

/// `signalfd(-1, set, SFD_CLOEXEC | SFD_NONBLOCK)` for `count` signal numbers.
int cw8_signalfd_create(const int *signals, size_t count);

/// `read()` of one `struct signalfd_siginfo`; returns its `ssi_signo`, or -1 with errno EAGAIN when no
/// signal is pending.
int cw8_signalfd_read(int fd);

/// `fork` and `execv(path, argv)` (argv ends with NULL) of a child that is tied to the calling thread: it gets
/// SIGTERM when that thread ends (`PR_SET_PDEATHSIG`; it exits at once if the thread ended before that was set).
/// Its stdin is /dev/null, its stdout and stderr a pipe whose read end (close-on-exec, non-blocking) is stored in
/// `output`; its signal mask is empty and SIGPIPE, SIGTERM and SIGINT are back to their defaults. Only
/// async-signal-safe calls run between the fork and the exec. Returns the child's pid; the caller reaps it.
int cw8_spawn_tied(const char *path, char *const argv[], int *output);

/// SIGRTMIN, which glibc computes at run time (a macro Swift cannot import).
int cw8_sigrtmin(void);

/// `fflush(stdout)`, then `ferror(stdout)`: 0 when everything printed so far reached descriptor 1, else the errno
/// of the failure (EIO when an earlier buffered write failed and its errno is gone). Swift 6 cannot name `stdout`.
int cw8_flush_stdout(void);
