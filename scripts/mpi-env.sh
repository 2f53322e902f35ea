# Sourced by the scripts: Open MPI refuses to run as root without these, and CI runs as root.
if [ "$(id -u)" -eq 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
# Several processes read the same dataset files; HDF5's file locks would serialise or refuse them.
export HDF5_USE_FILE_LOCKING=FALSE
# Open MPI 4's mpirun cannot forward SIGINT/SIGTERM to the ranks (it kills them a second later):
# to stop a run by hand and keep its running tasks, launch with scripts/drbench-mpirun, which turns
# Ctrl-C into the SIGUSR1 mpirun does forward (docs/cluster.md, "Stopping").
