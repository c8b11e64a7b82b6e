#ifndef PUSHCTL_STOP_SIGNALS_H
#define PUSHCTL_STOP_SIGNALS_H

/// SIGINT, SIGTERM and SIGHUP as requests to stop a run, not as the end of the process: each one
/// is counted and the last one remembered, and a byte written to a pipe wakes the run's poll(2)
/// (the handler does only what is async-signal-safe). Installed without SA_RESTART, so a blocking
/// read is interrupted too.

/// Installs the handlers (once); returns the pipe's read end, to watch for reading, or -1.
int pushctl_stop_signals_install(void);

/// The pipe's read end once installed, else -1 (nothing is installed).
int pushctl_stop_signals_descriptor(void);

/// How many of those signals arrived since install.
int pushctl_stop_signals_count(void);

/// The last one's number (0 before any).
int pushctl_stop_signals_last(void);

/// Empties the wake pipe (after the poll saw it readable).
void pushctl_stop_signals_drain(void);

#endif
