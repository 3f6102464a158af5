#!/usr/bin/env bash
# Output safety (docs/security.md, "Output files and directories"):
#   1. links planted in an output directory are never followed: row files,
#      whole files and gnuplot's plots replace a link, a resumed row file
#      that is a link is refused, an output directory that is a link is
#      refused (compare, design, sweep, torus -o, plan -o);
#   2. one writer per output directory: a second run is refused (exit 2,
#      the directory and the first run's pid) and the first keeps every row;
#   3. a write that fails is an error: standard output on a full disk,
#      gnuplot failing or cutting its outputs short (a full disk), and
#      compare does not say it wrote a plot it did not write;
#   4. a design study interrupted and resumed writes design.csv,
#      summary.csv and report.md byte for byte as an uninterrupted one.
source "$(dirname "${BASH_SOURCE[0]}")/cli-common.bash"
cd "$tmp" || exit 1
trap 'umount "$tmp/tiny" 2>/dev/null; rm -rf "$tmp"' EXIT   # the full-disk tmpfs of part 3

untouched() { # untouched NAME: the victim files kept their contents, none was created
  check "$1: victim unchanged" 0 test "$(cat victim)" = secret
  check "$1: no file created through a dangling link" 1 bash -c 'ls created-* 2>/dev/null | grep -q .'
}
plant() { # plant DIR NAME...: DIR/NAME -> victim
  local dir=$1 name
  shift
  mkdir -p "$dir"
  for name in "$@"; do
    ln -sfn "$PWD/victim" "$dir/$name"
  done
}
echo secret > victim

# -- 1. planted links ---------------------------------------------------------------
plant c1 compare.csv compare.dat compare.gp
ln -s "$PWD/created-svg" c1/compare.svg
ln -s "$PWD/created-png" c1/compare.png
check "compare into planted links" 0 "$ns" compare -T gen:star:4 -a ring -m 8KiB -o c1 --overwrite
untouched "compare"
for f in compare.csv compare.dat compare.gp compare.svg compare.png; do
  check "compare: $f is a new file, not the link" 0 test -f "c1/$f" -a ! -L "c1/$f"
done
rm c1/compare.csv && ln -s "$PWD/victim" c1/compare.csv
check "compare --resume: row file a link" 2 "$ns" compare -T gen:star:4 -a ring -m 8KiB -o c1 --resume
expect "link refused" "$tmp/err" "^netsched: c1/compare.csv: is a symbolic link: refused \(netsched never writes through a link\); remove it$"
rm c1/compare.csv && ln -s "$PWD/created-resume" c1/compare.csv
check "compare --resume: dangling link" 2 "$ns" compare -T gen:star:4 -a ring -m 8KiB -o c1 --resume
untouched "compare --resume"
# a link to a compare.csv of the old 17-column format is not upgraded through either
printf 'config,topology,collective,model,label,algorithm,sync,msize_bytes,contention_free,valid,completion_s,bound_s,ratio,throughput_mbps,bound_mbps,sync_messages,status\n' > old-format.csv
cp old-format.csv old-format.orig
rm c1/compare.csv && ln -s "$PWD/old-format.csv" c1/compare.csv
check "compare --resume: link to an old-format file" 2 "$ns" compare -T gen:star:4 -a ring -m 8KiB -o c1 --resume
check "old-format file not upgraded through the link" 0 cmp old-format.csv old-format.orig
check "the link is still a link" 0 test -L c1/compare.csv

mkdir real && ln -s real linked
check "output directory a link" 2 "$ns" compare -T gen:star:4 -a ring -m 8KiB -o linked
expect "directory link refused" "$tmp/err" "^netsched: linked: the output directory is a symbolic link \(to real\): refused"
check "output directory a link, trailing slash" 2 "$ns" compare -T gen:star:4 -a ring -m 8KiB -o linked/
check "nothing written through the directory link" 0 test -z "$(ls -A real)"

plant d1/a-ideal compare.svg compare.gp
plant d1 alltoall-ideal.svg alltoall-ideal.png alltoall-ideal.gp design.csv report.md
ln -s "$PWD/created-design" d1/summary.csv
check "design into planted links" 0 "$ns" design -T a=gen:star:4 -a ring -m 8KiB -o d1 --overwrite
untouched "design"
plant d1/a-ideal compare.csv
check "design: a run's row file a link (resumed)" 2 "$ns" design -T a=gen:star:4 -a ring -m 8KiB -o d1 --resume
expect "run row file link refused" "$tmp/err" "d1/a-ideal/compare.csv: is a symbolic link: refused"
untouched "design resume"
rm d1/a-ideal/compare.csv
check "design: plot replaced" 0 test -f d1/alltoall-ideal.svg -a ! -L d1/alltoall-ideal.svg
mkdir elsewhere && ln -s "$PWD/elsewhere" d2-run && mkdir d2 && mv d2-run d2/a-ideal
check "design: a run directory that is a link" 2 "$ns" design -T a=gen:star:4 -a ring -m 8KiB -o d2
expect "run directory link named" "$tmp/err" "d2/a-ideal: the output directory is a symbolic link"
check "nothing written into the linked run directory" 0 test -z "$(ls -A elsewhere)"

plant s1 rows.jsonl rows.csv aggregate.json plot-lr1_max_path.svg plot-lr1_max_path.png
sweep=(-g 'waxman:machines=60:ratio=5' --seeds 1..2 --trees bfs --metrics all --plots lr1_max_path --progress none)
check "sweep into planted links" 0 "$ns" sweep "${sweep[@]}" -o s1 --restart
untouched "sweep"
check "sweep: rows.jsonl replaced" 0 test -f s1/rows.jsonl -a ! -L s1/rows.jsonl
check "sweep: plot replaced" 0 test -f s1/plot-lr1_max_path.svg -a ! -L s1/plot-lr1_max_path.svg
plant s2 shard-0-of-2.jsonl
check "sweep shard: row file a link" 2 "$ns" sweep "${sweep[@]}" -o s2 --shard 0/2 --resume
expect "shard link refused" "$tmp/err" "s2/shard-0-of-2.jsonl: is a symbolic link: refused"
untouched "sweep shard"

plant t1 table2.md fig6.dat fig6.gp fig6.svg
check "torus -o into planted links" 0 "$ns" torus -o t1
untouched "torus"
for f in table2.md fig6.dat fig6.gp fig6.svg; do
  check "torus: $f replaced" 0 test -f "t1/$f" -a ! -L "t1/$f"
done
ln -s "$PWD/created-plan" plan.json
check "plan -o a dangling link" 0 "$ns" plan -T gen:star:4 -a ring -o plan.json
untouched "plan -o"
check "no temporary file or private directory left" 1 bash -c \
  'find . \( -name "*.??????" -o -name ".plot-*" -o -name ".netsched*.lock" \) | grep -q .'

# -- 2. one writer per output directory ---------------------------------------------------
# A real second run while the first holds the lock: the first is planned to
# take seconds (9 simulated rows); the second is refused as soon as it starts.
"$ns" compare -T gen:star:16 -a ring,simple,pair -m 8KiB..32KiB -o busy >first.out 2>first.err &
first=$!
for _ in $(seq 1 3000); do
  [[ -s busy/compare.csv ]] && break
  sleep 0.01
done
check "second compare into a busy directory" 2 "$ns" compare -T gen:star:4 -a ring -m 8KiB -o busy --overwrite
expect "second refused, first named" "$tmp/err" "^netsched: busy: another netsched run \(pid $first\) is writing into this directory: wait for it to end, or choose another output directory$"
check "second --resume refused too" 2 "$ns" compare -T gen:star:16 -a ring,simple,pair -m 8KiB..32KiB -o busy --resume
wait "$first"
check "first run succeeded" 0 test "$?" -eq 0
check "first run kept all its rows" 0 test "$(wc -l < busy/compare.csv)" -eq 10
check "no other configuration's row" 0 test "$(cut -d, -f1 busy/compare.csv | sort -u | wc -l)" -eq 2
check "the lock is released" 0 "$ns" compare -T gen:star:16 -a ring,simple,pair -m 8KiB..32KiB -o busy --resume
check "a finished run leaves no lock file" 1 test -e busy/.netsched.lock

# A run stopped by SIGTERM removes its lock file too (in one process and with
# workers; a background job of a script ignores SIGINT): the lock file is among
# the files a stop signal removes before the process ends by it.
for jobs in 1 2; do
  "$ns" compare -T gen:star:16 -a ring,simple,pair -m 8KiB..1MiB -M tcp -o stopped$jobs \
    -j $jobs >/dev/null 2>&1 &
  pid=$!
  for _ in $(seq 1 3000); do
    [[ -s stopped$jobs/compare.csv ]] && break
    sleep 0.01
  done
  kill -TERM "$pid"
  wait "$pid"
  check "-j $jobs: stopped by SIGTERM (143)" 0 test $? -eq 143
  check "-j $jobs: no lock file left by SIGTERM" 1 test -e stopped$jobs/.netsched.lock
done

# Runs racing on one directory: each one either runs alone or is refused with
# the message above, and none leaves a lock file. A run refused in the instant
# between another's lock and its pid being written may not name the pid.
race=()
for i in $(seq 1 8); do
  "$ns" compare -T gen:star:4 -a ring -m 8KiB -o race --overwrite -j 1 >race$i.out 2>race$i.err &
  race+=($!)
done
refused=0 ran=0 other=0
for i in $(seq 1 8); do
  wait "${race[$((i - 1))]}"
  case $? in
    0) ran=$((ran + 1)) ;;
    2) grep -Eq "^netsched: race: another netsched run( \(pid [0-9]+\))? is writing into this directory: wait for it to end, or choose another output directory$" race$i.err &&
         refused=$((refused + 1)) || other=$((other + 1)) ;;
    *) other=$((other + 1)) ;;
  esac
done
check "racing runs: each ran or was refused as busy ($ran ran, $refused refused)" 0 \
  test $((ran + refused)) -eq 8 -a $other -eq 0 -a $ran -ge 1
check "racing runs: one header and one row" 0 test "$(wc -l < race/compare.csv)" -eq 2
check "racing runs: no lock file left" 1 test -e race/.netsched.lock

# Every command that writes a directory takes its lock (held here by the test).
hold() { mkdir -p "$1"; exec 9>"$1/.netsched.lock"; flock -n 9; }
release() { exec 9>&-; }
hold held-d
check "design into a locked directory" 2 "$ns" design -T a=gen:star:4 -a ring -m 8KiB -o held-d
expect "design refused" "$tmp/err" "^netsched: held-d: another netsched run is writing into this directory"
release
printf '[scenario]\ncollective = alltoall\nalgorithms = ring\nmsizes = 8KiB\noutput = held-s\n[topology t]\nfile = gen:star:4\n' > sc.ini
hold held-s
check "scenario into a locked directory" 2 "$ns" scenario run sc.ini
expect "scenario refused" "$tmp/err" "held-s: another netsched run is writing into this directory"
release
hold held-w
check "sweep into a locked directory" 2 "$ns" sweep "${sweep[@]}" -o held-w
expect "sweep refused" "$tmp/err" "held-w: another netsched run is writing into this directory"
check "sweep merge into a locked directory" 2 "$ns" sweep merge "${sweep[@]}" -o held-w
expect "merge refused" "$tmp/err" "held-w: another netsched run is writing into this directory"
release
hold held-t
check "torus -o into a locked directory" 2 "$ns" torus -o held-t
release
mkdir -p held-sh && exec 9>held-sh/.netsched-shard-1-of-2.jsonl.lock && flock -n 9
check "another shard of the directory runs" 0 "$ns" sweep "${sweep[@]}" -o held-sh --shard 0/2
check "the same shard twice is refused" 2 "$ns" sweep "${sweep[@]}" -o held-sh --shard 1/2
expect "shard refused" "$tmp/err" "held-sh: another netsched run is writing shard-1-of-2.jsonl here"
release

# -- 3. failed writes are errors ---------------------------------------------------------------
check "torus > /dev/full" 2 bash -c "'$ns' torus > /dev/full"
expect "stdout write error" "$tmp/err" "^netsched: standard output: write failed: No space left on device$"
check "compare > /dev/full" 2 bash -c "'$ns' compare -T gen:star:4 -a ring -m 8KiB -o full1 > /dev/full"
expect "compare stdout write error" "$tmp/err" "standard output: write failed"
check "topo show > /dev/full" 2 bash -c "'$ns' topo show gen:star:4 > /dev/full"

mkdir -p fakebin nognuplot
cat > fakebin/gnuplot <<'EOF'
#!/bin/sh
# gnuplot that fails after starting its outputs
echo "gnuplot: cannot write (simulated)" >&2
exit 1
EOF
chmod +x fakebin/gnuplot
check "compare: gnuplot fails" 2 env PATH="$tmp/fakebin:$PATH" "$ns" compare -T gen:star:4 -a ring -m 8KiB -o gp1
expect "gnuplot's failure reported" "$tmp/err" "^netsched: gp1/compare.gp: gnuplot failed: gnuplot: cannot write \(simulated\)$"
check "compare does not claim the plot" 1 grep -q "compare.png" "$tmp/out"
check "no plot left" 1 test -e gp1/compare.svg
check "rows kept" 0 test "$(wc -l < gp1/compare.csv)" -eq 2
# What gnuplot 5.4 does on a full disk: exit 0 with its outputs cut short.
cat > fakebin/gnuplot <<'EOF'
#!/bin/sh
dir=$(echo "$2" | sed "s/.*= '\(.*\)'/\1/")
printf '<?xml version="1.0"?>\n<svg>' > "${dir}compare.svg"
: > "${dir}compare.png"
exit 0
EOF
check "compare: plot cut short by a full disk" 2 env PATH="$tmp/fakebin:$PATH" "$ns" compare -T gen:star:4 -a ring -m 8KiB -o gp2
expect "cut short reported" "$tmp/err" "^netsched: gp2/compare.svg: plot not written: cut short: it does not end with </svg> \(is the disk full\?\)$"
check "no partial plot left" 1 test -e gp2/compare.svg
check "no private directory left" 1 bash -c 'ls -A gp2 | grep -q "^\.plot-"'
check "design: plot cut short" 2 env PATH="$tmp/fakebin:$PATH" "$ns" design -T a=gen:star:4 -a ring -m 8KiB -o gp3
check "torus: plot cut short" 2 env PATH="$tmp/fakebin:$PATH" "$ns" torus -o gp4
check "compare without gnuplot" 0 env PATH="$tmp/nognuplot" "$ns" compare -T gen:star:4 -a ring -m 8KiB -o gp5
expect "no plot: a warning" "$tmp/err" "^warning: no plot \(cannot run gnuplot"
expect "no plot claimed" "$tmp/out" "^wrote gp5/compare.csv \(no plot\)$"
check "sweep without gnuplot" 0 env PATH="$tmp/nognuplot" "$ns" sweep "${sweep[@]}" -o gp6
expect "sweep claims no plot" "$tmp/out" "^wrote gp6/\{rows.jsonl,rows.csv,aggregate.json,aggregate.csv\}$"
check "sweep: plot cut short" 2 env PATH="$tmp/fakebin:$PATH" "$ns" sweep "${sweep[@]}" -o gp7
expect "sweep plot failure reported" "$tmp/err" "gp7/plot-lr1_max_path.svg: plot not written: gnuplot did not write it"
check "no private directory left behind an unexpected output" 1 bash -c 'ls -A gp7 | grep -q "^\.plot-"'
mkdir -p gp8/.plot-Ab12Cd && echo partial > gp8/.plot-Ab12Cd/compare.svg   # a run killed during its plot
check "compare after a run killed during its plot" 0 "$ns" compare -T gen:star:4 -a ring -m 8KiB -o gp8
check "the killed run's private directory is removed" 1 test -e gp8/.plot-Ab12Cd
# A real full disk, where this machine lets us mount a small tmpfs.
mkdir -p tiny
if mount -t tmpfs -o size=64k tmpfs tiny 2>/dev/null; then
  head -c 45000 /dev/zero > tiny/fill 2>/dev/null
  check "compare on a full disk" 2 "$ns" compare -T gen:star:4 -a ring -m 8KiB -o tiny/out
  expect "full disk reported" "$tmp/err" "plot not written|No space left"
  check "compare does not claim the plot (full disk)" 1 grep -q "compare.png" "$tmp/out"
  check "no partial plot on the full disk" 1 test -e tiny/out/compare.svg
  umount tiny
else
  echo "ok - # SKIP full-disk tmpfs (cannot mount here)"
fi

# -- 4. a resumed design study writes what an uninterrupted one does -----------------------
# 10 Gbit/s links and small messages: times of tens of microseconds, where
# the rows' 9 decimals change the ratios' 6th digit.
study=(-T a=gen:star:8:bandwidth=10Gbps -T b=gen:tree:2,4:bandwidth=10Gbps -a ring,simple,pair -m 8KiB,32KiB)
check "uninterrupted study" 0 "$ns" design "${study[@]}" -o whole
cp -r whole cut
rm cut/design.csv cut/summary.csv cut/report.md
head -4 whole/a-ideal/compare.csv > cut/a-ideal/compare.csv           # three rows kept
head -c 300 whole/b-ideal/compare.csv > cut/b-ideal/compare.csv       # a row cut short
check "resumed study" 0 "$ns" design "${study[@]}" -o cut --resume
expect "rows were kept" "$tmp/out" "kept from the previous run"
for f in design.csv summary.csv report.md alltoall-ideal.dat a-ideal/compare.csv b-ideal/compare.csv; do
  check "resumed $f = uninterrupted" 0 cmp whole/$f cut/$f
done

echo "$passed passed, $failures failed"
[[ $failures -eq 0 ]]
