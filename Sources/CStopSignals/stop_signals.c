#include "stop_signals.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t received_count = 0;
static volatile sig_atomic_t last_signal = 0;
static int wake_pipe[2] = {-1, -1};

static void on_stop_signal(int number) {
    int saved = errno;
    received_count += 1;
    last_signal = number;
    if (wake_pipe[1] >= 0) {
        char byte = 1;
        (void)write(wake_pipe[1], &byte, 1);  // non-blocking: a full pipe already wakes the poll
    }
    errno = saved;
}

static int set_flags(int fd) {
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0) return -1;
    return fcntl(fd, F_SETFD, FD_CLOEXEC);
}

int pushctl_stop_signals_install(void) {
    if (wake_pipe[0] >= 0) return wake_pipe[0];
    if (pipe(wake_pipe) != 0) return -1;
    if (set_flags(wake_pipe[0]) < 0 || set_flags(wake_pipe[1]) < 0) return -1;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_stop_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;  // no SA_RESTART: a blocking read returns EINTR
    const int signals[] = {SIGINT, SIGTERM, SIGHUP};
    sigset_t unblock;
    sigemptyset(&unblock);
    for (unsigned i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        if (sigaction(signals[i], &action, NULL) != 0) return -1;
        sigaddset(&unblock, signals[i]);
    }
    // A parent may have started us with these blocked (the mask is inherited): unblocked here, on
    // the thread that polls, or a stop would wait forever as a pending signal.
    pthread_sigmask(SIG_UNBLOCK, &unblock, NULL);
    return wake_pipe[0];
}

int pushctl_stop_signals_descriptor(void) { return wake_pipe[0]; }

int pushctl_stop_signals_count(void) { return received_count; }

int pushctl_stop_signals_last(void) { return last_signal; }

void pushctl_stop_signals_drain(void) {
    if (wake_pipe[0] < 0) return;
    char buffer[64];
    while (read(wake_pipe[0], buffer, sizeof buffer) > 0) {}
}
