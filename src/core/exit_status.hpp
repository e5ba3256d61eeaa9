// exit_status.hpp — the exit statuses of `rtpar` and `rtpar-bench` (`rtpar bench ...`): one table
// for both programs, documented in docs/cli.md ("Exit statuses"). Each status has one meaning
// whichever program or subcommand returns it, so scripts can test them without knowing which.
#pragma once

namespace rtpar {

// kExitOk: the command did what was asked.
inline constexpr int kExitOk = 0;
// kExitFail: a negative verdict (not schedulable, a deadline missed with --fail-on-miss) or a
// benchmark program that failed to run (its rows are missing, the others are printed).
inline constexpr int kExitFail = 1;
// kExitBadInput: bad input — a file, an option, or `rtpar bench` without rtpar-bench built.
inline constexpr int kExitBadInput = 2;
// kExitEnvironment: the environment refused real-time scheduling, a CPU or locked memory.
inline constexpr int kExitEnvironment = 3;
// kExitWrongResult: a benchmark computed a wrong result (a parallel result differed from the
// serial one, or two programs disagreed): the run is wrong, not slow, and no time is printed.
inline constexpr int kExitWrongResult = 4;
// kExitTaskFailed: a task's code threw during `rtpar run` (the reports are still complete).
inline constexpr int kExitTaskFailed = 5;
// kExitTaskCrashed: a task's code faulted (SIGSEGV, SIGBUS, SIGFPE, SIGILL) during `rtpar run`;
// the run ended at once and the reports are complete up to the fault (docs/reliability.md
// "Crashes"). Distinct from 5: the process state may be damaged, and the faulting threads were
// left blocked rather than returning.
inline constexpr int kExitTaskCrashed = 6;
// kExitIoError: an I/O error on an output (EX_IOERR of sysexits.h): `rtpar run` could not
// write its summary to stdout (a closed pipe, a full disk) or its --out files (EFBIG under a
// file-size limit, ENOSPC); the --out directory then still holds its previous reports, unmixed.
inline constexpr int kExitIoError = 74;
// kExitInternal: an internal error, a bug (EX_SOFTWARE of sysexits.h): distinct from every
// verdict above so that a crash of the tool is never read as an answer.
inline constexpr int kExitInternal = 70;

}  // namespace rtpar
