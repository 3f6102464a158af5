# bash completion for netsched. Commands and options are read from
# `netsched --help` and `netsched COMMAND --help`, so they never drift from
# the program (and offer one spelling per option: the hidden aliases of
# earlier versions, e.g. --msizes, are not offered); algorithms from
# `netsched plan --list`.
_netsched()
{
  local cur prev words cword
  _init_completion -s 2>/dev/null || {
    cur="${COMP_WORDS[COMP_CWORD]}"; prev="${COMP_WORDS[COMP_CWORD-1]}"
    words=("${COMP_WORDS[@]}"); cword=$COMP_CWORD
  }
  local ns="${words[0]}"
  if [[ $cword -eq 1 ]]; then
    local cmds
    cmds=$("$ns" --help 2>/dev/null | awk '/^Commands:/ {on=1; next} on && NF {print $1} !NF {on=0}')
    COMPREPLY=($(compgen -W "$cmds --help --version" -- "$cur"))
    return
  fi
  local cmd="${words[1]}"
  case "$prev" in
    -a|--algorithm|--algorithms)
      local algos
      algos=$("$ns" plan --list 2>/dev/null | awk 'NF {print $1}' | sed 's|.*/||' | sort -u)
      COMPREPLY=($(compgen -W "$algos" -- "$cur")); return ;;
    -c|--collective|--collectives)
      COMPREPLY=($(compgen -W "alltoall allgather bcast reduce allreduce alltoallv allgatherv" -- "$cur")); return ;;
    -M|--model|--models) COMPREPLY=($(compgen -W "ideal tcp smpi packet ns3" -- "$cur")); return ;;
    --transport) COMPREPLY=($(compgen -W "tcp-persistent udp-window" -- "$cur")); return ;;
    --window-count) COMPREPLY=($(compgen -W "auto sent-received unacked" -- "$cur")); return ;;
    --ns3-scheduler) COMPREPLY=($(compgen -W "heap calendar map" -- "$cur")); return ;;
    --mtu) COMPREPLY=($(compgen -W "1500 9000" -- "$cur")); return ;;
    -j|--jobs) COMPREPLY=($(compgen -W "1 $(nproc 2>/dev/null)" -- "$cur")); return ;;
    --progress) COMPREPLY=($(compgen -W "auto bar lines none" -- "$cur")); return ;;
    -T|--topology|-o|--output|--junit|--csv|--timeline|--trace|--calibration|--prices|--files|--schedule|--goal|-D|--decision)
      _filedir 2>/dev/null || COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --arrival)
      if [[ "$cur" == file:* ]]; then # file:PATH: complete the path after the prefix
        local path=${cur#file:}
        COMPREPLY=($(compgen -f -P file: -- "$path"))
      else
        COMPREPLY=($(compgen -W "balanced random: file:" -- "$cur"))
      fi
      compopt -o nospace 2>/dev/null; return ;;
    --pattern) # a pattern file or a generator (docs/pattern-format.md)
      COMPREPLY=($(compgen -W "uniform uniform: random: nas-is:" -- "$cur") $(compgen -f -- "$cur"))
      compopt -o nospace 2>/dev/null; return ;;
    --eager-threshold) COMPREPLY=($(compgen -W "0 64KiB" -- "$cur")); return ;;
    --reduce-rate) COMPREPLY=($(compgen -W "0 36GBps" -- "$cur")); return ;;
    --cfg) COMPREPLY=($(compgen -W "smpi/auto-shared-malloc-thresh: smpi/shared-malloc-blocksize:" -- "$cur"))
      compopt -o nospace 2>/dev/null; return ;;
    --ti-trace) _filedir -d 2>/dev/null || COMPREPLY=($(compgen -d -- "$cur")); return ;;
    --timing) COMPREPLY=($(compgen -W "mpptest mpptest+barrier mpptest+computation=" -- "$cur")); return ;;
    --measure) [[ $cmd == tune ]] && { COMPREPLY=($(compgen -W "replay smpirun" -- "$cur")); return; } ;;
    --for) [[ $cmd == tune ]] && { COMPREPLY=($(compgen -W "ompi mpich" -- "$cur")); return; } ;;
    --spanning) COMPREPLY=($(compgen -W "bfs dfs kruskal uniform" -- "$cur")); return ;;
    -F|--output-format) COMPREPLY=($(compgen -W "table c ompi-rules mpich-csel" -- "$cur")); return ;;
    -S|--sync)
      COMPREPLY=($(compgen -W "none dummy sender-all sender-partial: receiver-all receiver-partial:
        barrier-all barrier-partial-none: barrier-partial-sender: barrier-partial-receiver: light
        window:" -- "$cur")); return ;;
    -f|--format)
      COMPREPLY=($(compgen -W "native slurm slurm:1Gbps slurm:1Gbps:core=10Gbps graphml
        graphml:largest-component graphml:machines-per-switch= simgrid" -- "$cur")); return ;;
  esac
  if [[ "$cur" == -* ]]; then
    local opts
    opts=$("$ns" "$cmd" --help 2>/dev/null | grep -oE -- '--[a-z0-9-]+' | sort -u)
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    return
  fi
  _filedir 2>/dev/null || COMPREPLY=($(compgen -f -- "$cur"))
}
complete -F _netsched netsched
