# Sourced by tests that run Open MPI across several "nodes" on one machine: each node is a network
# namespace (its own 10.x address on a veth pair into a bridge of the test's own), its own host
# name (a UTS namespace entered at launch) and, where the cgroup v1 memory controller or cgroup v2
# allows, its own memory cgroup with a limit. mpirun stays in the initial namespace and starts its
# daemons with a plm_rsh_agent script that enters the node's namespaces instead of ssh.
#
#   netns_nodes_up N LIMIT_MIB...   makes nodes 1..N (LIMIT_MIB per node; 0: no cgroup limit) and
#                                   sets NODE_IPS, NODE_NS, HOSTFILE (2 slots each), AGENT and
#                                   MPI_NODES (the mpirun options that use them); returns 1 with
#                                   NETNS_SKIP set to what the kernel refused.
#   netns_nodes_down                removes everything netns_nodes_up made (also on EXIT).
#   node_pids I                     pids of every process in node I (its daemon and ranks).
# Needs root, iproute2, util-linux (nsenter, unshare) and a kernel that allows network namespaces.

NETNS_TAG="drb$$"
NODE_NS=()
NODE_IPS=()
NODE_CGROUPS=()
NETNS_BRIDGE=""

_netns_try() {  # _netns_try WHAT CMD...: runs CMD; on failure records WHAT and its stderr
  local err
  if ! err=$("${@:2}" 2>&1); then
    NETNS_SKIP="$1 refused: '${*:2}': $err"
    return 1
  fi
}

# This process's memory cgroup directory (v1 memory controller, or v2 unified), or "".
_own_memory_cgroup() {
  local line path
  line=$(grep -E '^[0-9]+:([^:]*,)?memory(,[^:]*)?:' /proc/self/cgroup 2>/dev/null | head -1)
  if [ -n "$line" ] && [ -d /sys/fs/cgroup/memory ]; then
    path=${line#*:*:}
    echo "/sys/fs/cgroup/memory${path%/}"
    return
  fi
  line=$(grep -E '^0::' /proc/self/cgroup 2>/dev/null | head -1)
  if [ -n "$line" ] && [ -f /sys/fs/cgroup/cgroup.controllers ]; then
    path=${line#0::}
    echo "/sys/fs/cgroup${path%/}"
  fi
}

netns_nodes_up() {
  local n=$1; shift
  NETNS_SKIP=""
  if [ "$(id -u)" -ne 0 ]; then NETNS_SKIP="not root (network namespaces need CAP_SYS_ADMIN)"; return 1; fi
  command -v ip >/dev/null || { NETNS_SKIP="iproute2's ip is not installed"; return 1; }
  command -v nsenter >/dev/null || { NETNS_SKIP="util-linux's nsenter is not installed"; return 1; }
  local net=$((200 + $$ % 50)) i ns
  NETNS_BRIDGE="${NETNS_TAG}br"
  _netns_try "a bridge" ip link add "$NETNS_BRIDGE" type bridge || return 1
  _netns_try "the bridge's address" ip addr add "10.$net.0.254/24" dev "$NETNS_BRIDGE" || return 1
  ip link set "$NETNS_BRIDGE" up
  local parent
  parent=$(_own_memory_cgroup)
  for ((i = 1; i <= n; i++)); do
    ns="${NETNS_TAG}n$i"
    _netns_try "a network namespace" ip netns add "$ns" || return 1
    NODE_NS+=("$ns")
    _netns_try "a veth pair" ip link add "${NETNS_TAG}v$i" type veth peer name "${NETNS_TAG}p$i" ||
      return 1
    ip link set "${NETNS_TAG}v$i" master "$NETNS_BRIDGE" up
    ip link set "${NETNS_TAG}p$i" netns "$ns"
    ip netns exec "$ns" ip link set lo up
    ip netns exec "$ns" ip addr add "10.$net.0.$i/24" dev "${NETNS_TAG}p$i"
    ip netns exec "$ns" ip link set "${NETNS_TAG}p$i" up
    NODE_IPS+=("10.$net.0.$i")
    local limit=${1:-0}; shift || true
    local cg=""
    if [ "$limit" != 0 ] && [ -n "$parent" ]; then
      cg="$parent/${NETNS_TAG}n$i"
      if mkdir "$cg" 2>/dev/null; then
        local file=memory.limit_in_bytes
        [ -f "$cg/$file" ] || file=memory.max
        if ! echo $((limit * 1024 * 1024)) >"$cg/$file" 2>/dev/null; then
          echo "note: the memory cgroup of node $i refused a limit ($cg/$file); it runs without one"
          rmdir "$cg"; cg=""
        fi
      else
        echo "note: cannot make a memory cgroup under $parent; node $i runs without a limit"
        cg=""
      fi
    fi
    NODE_CGROUPS+=("$cg")
  done
  HOSTFILE=$(mktemp)
  AGENT=$(mktemp)
  for ((i = 0; i < n; i++)); do echo "${NODE_IPS[$i]} slots=2" >>"$HOSTFILE"; done
  # The agent is called as `AGENT [ssh options] HOST COMMAND...`, the command meant for a remote
  # shell: it joins the node's memory cgroup, then its network and a UTS namespace of its own
  # (host name node-I), and runs the command there.
  {
    echo '#!/bin/bash'
    echo 'while [ "${1#-}" != "$1" ]; do shift; done'
    echo 'host=$1; shift'
    echo 'case $host in'
    for ((i = 0; i < n; i++)); do
      echo "  ${NODE_IPS[$i]}) ns=${NODE_NS[$i]}; cg='${NODE_CGROUPS[$i]}'; name=node-$((i + 1)) ;;"
    done
    echo '  *) echo "netns agent: unknown host $host" >&2; exit 1 ;;'
    echo 'esac'
    echo '[ -n "$cg" ] && echo $$ >"$cg/cgroup.procs"'
    # nsenter, not `ip netns exec`: that remounts /sys for the namespace, hiding the cgroup
    # mount and with it the node's memory limit.
    echo 'exec nsenter --net=/run/netns/"$ns" unshare --uts /bin/sh -c "hostname $name; $*"'
  } >"$AGENT"
  chmod +x "$AGENT"
  # The daemons talk to mpirun and the ranks to each other over the test's network only.
  MPI_NODES=(--hostfile "$HOSTFILE" --mca plm_rsh_agent "$AGENT" --mca btl tcp,vader,self
             --mca btl_tcp_if_include "10.$net.0.0/24" --mca oob_tcp_if_include "10.$net.0.0/24")
}

node_pids() {
  ip netns pids "${NODE_NS[$1]}" 2>/dev/null
}

netns_nodes_down() {
  local i p
  for ((i = 0; i < ${#NODE_NS[@]}; i++)); do
    for p in $(node_pids "$i"); do kill -9 "$p" 2>/dev/null || true; done
  done
  sleep 0.2
  for ns in "${NODE_NS[@]}"; do ip netns del "$ns" 2>/dev/null || true; done
  [ -n "$NETNS_BRIDGE" ] && ip link del "$NETNS_BRIDGE" 2>/dev/null || true
  for cg in "${NODE_CGROUPS[@]}"; do [ -n "$cg" ] && rmdir "$cg" 2>/dev/null || true; done
  rm -f "${HOSTFILE:-}" "${AGENT:-}"
  NODE_NS=()
  NODE_CGROUPS=()
  NETNS_BRIDGE=""
}
