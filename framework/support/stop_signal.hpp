#pragma once
// Stop signals, shared by the scheduler and by whatever runs inside a task (an external method's
// child process must end when the run is asked to abandon its tasks).
namespace drbench {

// Stop signals: SIGINT (Ctrl-C), SIGTERM (a batch system's warning) and SIGUSR1 (what mpirun
// forwards to its ranks) ask for a clean stop: no new task starts and the running ones finish and
// are saved. A second one (or SIGUSR2, which mpirun also forwards) abandons the running tasks:
// iterative fits stop at their next iteration, external commands are ended, and none of them is
// recorded, so a resume runs them again. A third SIGINT ends the process at once. Each step is
// announced on stderr as the signal arrives. Installed before MPI_Init and the data load, so a
// signal in that window stops the run cleanly instead of killing a rank.
void install_stop_handlers();
bool stop_requested();
bool abandon_requested();  // a second stop signal: drop the running tasks
void request_stop();       // as if a stop signal had arrived (tests, fault injection)

// Tasks running in this process, for the stop message; the task runner counts them.
void task_started();
void task_ended();

}  // namespace drbench
