#define _GNU_SOURCE
#include "CTerminal.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

// Everything a handler reads is written before the handlers are installed (or is a
// sig_atomic_t), so a handler never sees a half-written value.
static struct termios saved_input;
static volatile sig_atomic_t input_fd = -1;
static volatile sig_atomic_t pipe_read = -1, pipe_write = -1;
static volatile sig_atomic_t output_fd = -1;
static volatile sig_atomic_t termination = 0;
static char restore_sequence[64];
static size_t restore_length;

static const int handled[] = { SIGWINCH, SIGINT, SIGTERM, SIGHUP };
#define HANDLED_COUNT (sizeof handled / sizeof handled[0])
static struct sigaction previous[HANDLED_COUNT];
static int installed;

int lk_terminal_enter_raw(int tty_fd) {
    struct termios raw;
    if (tcgetattr(tty_fd, &saved_input) != 0) return -1;
    raw = saved_input;
    // Keys arrive one by one, unechoed; Ctrl-C, Ctrl-Z and Ctrl-\ arrive as bytes instead of
    // signals (the presenter treats Ctrl-C as a request to quit). Output processing stays on.
    raw.c_lflag &= ~(tcflag_t)(ECHO | ICANON | ISIG | IEXTEN);
    raw.c_iflag &= ~(tcflag_t)(IXON | ICRNL);
    raw.c_cc[VMIN] = 0;
    raw.c_cc[VTIME] = 0;
    if (tcsetattr(tty_fd, TCSANOW, &raw) != 0) return -1;
    input_fd = tty_fd;
    return 0;
}

void lk_terminal_restore_input(void) {
    int fd = input_fd;
    if (fd < 0) return;
    tcsetattr(fd, TCSANOW, &saved_input);   // async-signal-safe (POSIX)
    input_fd = -1;
}

static int is_termination(int sig) { return sig == SIGINT || sig == SIGTERM || sig == SIGHUP; }

// Only async-signal-safe calls: fcntl, write, tcsetattr, sigaction, raise.
static void handle(int sig) {
    int saved_errno = errno;
    if (is_termination(sig)) {
        if (termination != 0) {
            // The program did not get to it: restore the terminal here and die of the signal.
            // Non-blocking, so that a terminal nobody reads cannot keep the process alive.
            if (output_fd >= 0 && restore_length > 0) {
                int flags = fcntl(output_fd, F_GETFL);
                if (flags >= 0) fcntl(output_fd, F_SETFL, flags | O_NONBLOCK);
                ssize_t ignored = write(output_fd, restore_sequence, restore_length);
                (void)ignored;
            }
            lk_terminal_restore_input();
            struct sigaction dfl;
            memset(&dfl, 0, sizeof dfl);
            dfl.sa_handler = SIG_DFL;
            sigemptyset(&dfl.sa_mask);
            sigaction(sig, &dfl, NULL);
            raise(sig);
            return;
        }
        termination = sig;
    }
    if (pipe_write >= 0) {
        unsigned char byte = (unsigned char)sig;
        ssize_t ignored = write(pipe_write, &byte, 1);   // a full pipe already says "wake up"
        (void)ignored;
    }
    errno = saved_errno;
}

int lk_terminal_signals_install(int out_fd, const char *restore) {
    if (installed) return pipe_read;
    int fds[2];
    if (pipe2(fds, O_NONBLOCK | O_CLOEXEC) != 0) return -1;
    size_t length = restore ? strlen(restore) : 0;
    if (length >= sizeof restore_sequence) length = sizeof restore_sequence - 1;
    if (length > 0) memcpy(restore_sequence, restore, length);
    restore_sequence[length] = 0;
    restore_length = length;
    output_fd = out_fd;
    termination = 0;
    pipe_read = fds[0];
    pipe_write = fds[1];
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = handle;
    sigemptyset(&action.sa_mask);
    for (size_t i = 0; i < HANDLED_COUNT; i++) sigaddset(&action.sa_mask, handled[i]);
    action.sa_flags = SA_RESTART;
    for (size_t i = 0; i < HANDLED_COUNT; i++) sigaction(handled[i], &action, &previous[i]);
    // A parent may have started us with these signals blocked (a test runner's worker thread
    // does): unblock them on this thread, or SIGTERM would never arrive.
    pthread_sigmask(SIG_UNBLOCK, &action.sa_mask, NULL);
    installed = 1;
    return fds[0];
}

void lk_terminal_signals_uninstall(void) {
    if (!installed) return;
    for (size_t i = 0; i < HANDLED_COUNT; i++) sigaction(handled[i], &previous[i], NULL);
    installed = 0;
    int r = pipe_read, w = pipe_write;
    pipe_read = -1;
    pipe_write = -1;
    output_fd = -1;
    close(r);
    close(w);
}

int lk_terminal_termination_signal(void) { return termination; }
