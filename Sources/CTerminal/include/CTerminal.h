// Terminal control that must be async-signal-safe: raw input mode, and signal handlers that
// wake the frame loop through a self-pipe and can restore the terminal on their own.
// Used only through LayerKit's TerminalInput (Sources/LayerKit/Display/TerminalInput.swift).
#ifndef LAYERKIT_CTERMINAL_H
#define LAYERKIT_CTERMINAL_H

#ifdef __cplusplus
extern "C" {
#endif

/// Puts `tty_fd` in raw input mode (no echo, no line buffering, no signal keys, reads that
/// return at once) after saving its settings for `lk_terminal_restore_input`. Returns 0, or -1
/// with errno set (for example when `tty_fd` is not a terminal).
int lk_terminal_enter_raw(int tty_fd);

/// Restores the input settings saved by `lk_terminal_enter_raw` (does nothing if none were).
void lk_terminal_restore_input(void);

/// Installs handlers for SIGWINCH, SIGINT, SIGTERM and SIGHUP and returns the read end of a
/// non-blocking self-pipe on which each delivered signal's number arrives as one byte (-1 with
/// errno on failure). A termination signal is left to the program the first time: it reads the
/// byte, restores the terminal and exits. If a second one arrives before that, the handler
/// itself writes `restore` (a NUL-terminated escape sequence, copied here) to `out_fd`,
/// restores the input settings and ends the process with the signal's default action. The four
/// signals are unblocked on the calling thread (a parent may have started the process with them
/// blocked).
int lk_terminal_signals_install(int out_fd, const char *restore);

/// Puts back the handlers that were there before `lk_terminal_signals_install` and closes the
/// self-pipe.
void lk_terminal_signals_uninstall(void);

/// The signal number a handler saw first among SIGINT, SIGTERM and SIGHUP (0 if none).
int lk_terminal_termination_signal(void);

#ifdef __cplusplus
}
#endif

#endif
