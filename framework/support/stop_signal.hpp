#pragma once
// Stop signals, shared by the scheduler and by whatever runs inside a task (an external method's
// child process must end when the run is asked to stop).
namespace drbench {

// Stop signals: SIGTERM (a batch system's warning), SIGINT, SIGUSR1 (what mpirun forwards to its
// ranks) ask for a clean stop. A second SIGINT ends the process at once; a batch system that
// will not wait follows its SIGTERM with SIGKILL. Installed before MPI_Init and the data load, so
// a signal in that window stops the run cleanly instead of killing a rank.
void install_stop_handlers();
bool stop_requested();
void request_stop();  // as if a stop signal had arrived (tests, fault injection)

}  // namespace drbench
