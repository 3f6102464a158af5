#!/usr/bin/env bash
# End-to-end tests of `netsched sweep` and the GT-ITM generators: gen:
# specs, bad specification files with their exact messages (exit 2), a
# sweep killed with SIGKILL and restarted (no row lost or duplicated, the
# same aggregate as an uninterrupted run), four shards merged into the
# unsharded run's files, a Slurm job array's shard, progress lines, the
# MPI mode when Open MPI and netsched-mpi are there, and `bound --json`
# for every collective.
source "$(dirname "${BASH_SOURCE[0]}")/cli-common.bash"
cd "$tmp" || exit 1

# -- generators -------------------------------------------------------------
check "waxman graph" 0 "$ns" topo show gen:waxman:3,40,4
expect "waxman size" "$tmp/out" "^size +200 machines, 40 switches"
check "waxman bfs tree" 0 "$ns" topo show gen:waxman:3,40,4:tree=bfs
expect "waxman tree routing" "$tmp/out" "^routing +tree"
check "transit-stub" 0 "$ns" topo show --json gen:transit-stub:2,1,3,2,4:hosts=all
expect "transit-stub switches" "$tmp/out" '"switches" : 27'
check "kruskal tree" 0 "$ns" topo show gen:kruskal-tree:5,16:machines=8
expect "kruskal machines" "$tmp/out" "^size +128 machines"
check "same spec, same topology" 0 cmp <("$ns" topo convert gen:waxman:9,30) <("$ns" topo convert gen:waxman:9,30)
check "bad waxman option" 2 "$ns" topo show gen:waxman:1,20:beta=0
expect "bad option named" "$tmp/err" "gen:waxman:1,20:beta=0: beta '0': expected beta > 0"

# -- bad specification files ---------------------------------------------------
bad() { # bad NAME MESSAGE  (stdin: the file; F stands for its path)
  cat > "$tmp/$1.ini"
  check "spec $1 refused" 2 "$ns" sweep "$tmp/$1.ini"
  expect "spec $1 message" "$tmp/err" "^netsched: ${2//F/$tmp/$1.ini}\$"
}
bad group "F:3: unknown group \[generatr a\] \(expected \[sweep\] and \[generator NAME\]\)" <<'EOF'
[sweep]
seeds = 1..3
[generatr a]
model = waxman
EOF
bad key "F:3: unknown key 'colour' in \[sweep\] \(description, output, seeds, trees, msize, metrics, measure, model, plots, x, files, format, pattern\)" <<'EOF'
[sweep]
seeds = 1..3
colour = red
EOF
bad empty "F:4: empty value for 'machines'" <<'EOF'
[sweep]
seeds = 1..3
[generator a]
machines =
EOF
bad twice "F:5: key 'switches' is given twice in \[generator a\] \(first at F:4\)" <<'EOF'
[sweep]
seeds = 1
[generator a]
switches = 8
switches = 9
model = waxman
EOF
bad value "F:5: degree 'four': expected a positive number" <<'EOF'
[sweep]
seeds = 1
[generator a]
model = waxman
degree = four
switches = 9
EOF

# -- a spec file, killed with SIGKILL and restarted -----------------------------
cat > "$tmp/kill.ini" <<'EOF'
[sweep]
description = kill test
output = kill-out
seeds = 1..30
trees = bfs,dfs
metrics = all
plots = lr1_max_path+lr3_max_path
[generator wax]
model = waxman
machines = 200,400
ratio = 5
EOF
check "reference run" 0 "$ns" sweep "$tmp/kill.ini" -o ref-out -j 2 --progress none
tasks=120
# one worker, killed once a few rows are in (long before the 120th)
"$ns" sweep "$tmp/kill.ini" -j 1 --progress none >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 3000); do
  [[ -f kill-out/rows.jsonl && $(wc -l < kill-out/rows.jsonl) -ge 4 ]] && break
  sleep 0.01
done
kill -KILL "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
partial=$(($(wc -l < kill-out/rows.jsonl) - 1))
check "killed before the end" 0 test "$partial" -lt "$tasks"
check "without --resume refused" 2 "$ns" sweep "$tmp/kill.ini" -j 2 --progress none
expect "names both flags" "$tmp/err" "^netsched: ([^ ]*/)?kill-out holds results of an earlier run \(rows.jsonl\): add --resume to continue them or --overwrite to start afresh$"
check "--resume resumes" 0 "$ns" sweep "$tmp/kill.ini" -j 2 --progress none --resume
expect "resumed rows counted" "$tmp/out" "; $partial done, $((tasks - partial)) to run"
check "every row once" 0 test "$(tail -n +2 kill-out/rows.jsonl | grep -o '"key":"[0-9a-f]*"' | sort -u | wc -l)" -eq "$tasks"
check "no extra row" 0 test "$(wc -l < kill-out/rows.jsonl)" -eq $((tasks + 1))
for f in rows.jsonl aggregate.json aggregate.csv rows.csv; do
  check "resumed $f = uninterrupted" 0 cmp kill-out/$f ref-out/$f
done
check "plot written" 0 test -s "kill-out/plot-lr1_max_path+lr3_max_path.gp"
check "rerun: nothing to do" 0 "$ns" sweep "$tmp/kill.ini" --progress none --resume
expect "nothing to run" "$tmp/out" "; $tasks done, 0 to run"
sed -i 's/^seeds = 1..30/seeds = 1..31/' "$tmp/kill.ini"
check "another grid refused" 2 "$ns" sweep "$tmp/kill.ini" --resume
expect "another grid named" "$tmp/err" "kill-out/rows.jsonl:1: rows of another sweep \(grid digest [0-9a-f]{16} in the file, [0-9a-f]{16} in this run"

# -- shards, merge, Slurm -------------------------------------------------------------
grid=(-g 'waxman:machines=60,90:ratio=5' --seeds 1..6 --trees bfs,kruskal --metrics all)
check "unsharded" 0 "$ns" sweep "${grid[@]}" -o whole -j 2 --progress none
for i in 0 1 2 3; do
  check "shard $i/4" 0 "$ns" sweep "${grid[@]}" -o parts --shard "$i/4" -j 1 --progress none
done
check "merge" 0 "$ns" sweep merge "${grid[@]}" -o parts
for f in rows.jsonl aggregate.json aggregate.csv; do
  check "merged $f identical" 0 cmp whole/$f parts/$f
done
rm parts/shard-3-of-4.jsonl
check "merge without shard 3" 2 "$ns" sweep merge "${grid[@]}" -o parts
expect "missing shard named" "$tmp/err" "parts: shard 3/4 is missing \(no shard-3-of-4.jsonl\)"
check "slurm array task" 0 env SLURM_ARRAY_TASK_ID=4 SLURM_ARRAY_TASK_MIN=3 SLURM_ARRAY_TASK_COUNT=2 \
  "$ns" sweep "${grid[@]}" -o slurm --progress none
check "slurm shard 1/2 written" 0 test -s slurm/shard-1-of-2.jsonl
check "bad --shard" 2 "$ns" sweep "${grid[@]}" -o x --shard 4/4
# --overwrite starts afresh; --restart is its deprecated alias, with a note
check "--overwrite" 0 "$ns" sweep "$tmp/kill.ini" -j 2 --progress none --overwrite
expect "started afresh" "$tmp/out" "; 0 done, 124 to run"
check "--restart still works" 0 "$ns" sweep "$tmp/kill.ini" -j 2 --progress none --restart
expect "--restart noted" "$tmp/err" "^note: --restart is deprecated: it is --overwrite now$"
expect "--restart starts afresh" "$tmp/out" "; 0 done, 124 to run"
check "--resume and --overwrite" 2 "$ns" sweep "$tmp/kill.ini" --resume --overwrite
expect "give one" "$tmp/err" "^netsched: --resume and --overwrite: give one"

# progress: plain lines when stderr is not a terminal (the default), no carriage return
check "progress lines" 0 "$ns" sweep -g 'kruskal-tree:switches=8' --seeds 1..3 -o prog --progress-interval 0.000001 -j 1
expect "progress line" "$tmp/err" "^sweep: [0-3]/3 rows \([0-9]+ %\), [0-9]+s"
expect "progress done line" "$tmp/err" "^sweep: 3/3 rows done in [0-9]+s$"
cp "$tmp/err" prog.err
check "no carriage return in a log" 1 grep -q $'\r' prog.err
check "--progress none" 0 "$ns" sweep -g 'kruskal-tree:switches=8' --seeds 1..3 -o prog2 --progress none --progress-interval 0.000001
cp "$tmp/err" none.err
check "none is silent" 0 test ! -s none.err
check "bad --progress" 2 "$ns" sweep -g 'kruskal-tree:switches=8' --seeds 1..3 -o prog3 --progress always
expect "modes named" "$tmp/err" "^netsched: --progress 'always': expected auto, bar, lines or none$"

if script -qec true /dev/null >/dev/null 2>&1; then # a terminal (a pty): a line redrawn, no plain lines
  check "progress on a terminal" 0 script -qec "'$ns' sweep -g kruskal-tree:switches=8 --seeds 1..3 -o bar -j 1" "$tmp/typescript"
  check "no plain lines on a terminal" 1 grep -q "^sweep: .* rows done" "$tmp/typescript"
fi

# -- routed all-to-all loads (issue 17 item 1): gen:waxman:1,50,4's cut bound is
# 1464 messages a link, its shortest routes put 1961 on s12->s39 ---------------------
check "routed sweep" 0 "$ns" sweep -g 'waxman:switches=50' --seeds 1..1 --metrics alltoall \
  -o routed -j 1 --progress none
expect "a2a_load routed" routed/rows.jsonl '"a2a_load":1961,'
expect "cut load kept" routed/rows.jsonl '"a2a_cut_load":1464,'
expect "routed distribution" routed/rows.jsonl '"routed_load_max":1961,"routed_load_mean":379.1563342,"routed_load_p50":249,"routed_load_p90":778.2,"routed_load_p99":1464'
expect "routed csv columns" routed/rows.csv 'a2a_cut_load,a2a_cut_time_s,routed_load_max,routed_load_mean,routed_load_p50,routed_load_p90,routed_load_p99'

# -- measured schedules (the simulator, in the worker processes) --------------------------
check "measure" 0 "$ns" sweep -g 'kruskal-tree:switches=3:ratio=3' --seeds 1..2 \
  --measure alltoall/faraj,allgather/lr3 -o meas -j 2 --progress none
expect "measured faraj" meas/rows.jsonl '"alltoall/faraj":\{"completion_s":[0-9.e-]+,"bound_s":[0-9.e-]+,"ratio":[0-9.]+,"valid":true\}'
expect "aggregated ratio" meas/aggregate.csv ',alltoall/faraj.ratio,2,'
# alltoallv and allgatherv measures take --pattern (pattern =), scaled to
# --msize on each topology; the bound is the pattern's, as `netsched bound`
# gives it for the whole spec (seed 1: gen:kruskal-tree:1,3:machines=3)
check "measure v-collectives" 0 "$ns" sweep -g 'kruskal-tree:switches=3:ratio=3' --seeds 1..2 \
  --measure alltoallv/ring,allgatherv/lr --pattern random:0.5,7 -m 8KiB -o vmeas --progress none
expect "alltoallv's pattern bound" vmeas/rows.jsonl \
  '"seed":1,.*"alltoallv/ring":\{"completion_s":[0-9.e-]+,"bound_s":0\.01453392,"ratio":[0-9.]+,"valid":true\}'
expect "allgatherv's pattern bound" vmeas/rows.jsonl \
  '"seed":1,.*"allgatherv/lr":\{"completion_s":[0-9.e-]+,"bound_s":0\.0046256,"ratio":[0-9.]+,"valid":true\}'
check "bound of seed 1's pattern" 0 "$ns" bound -T gen:kruskal-tree:1,3:machines=3 -c alltoallv \
  --pattern random:8192B,0.5,7
expect "the bound command agrees" "$tmp/out" "^alltoallv bound    0\.014534 s = 181674B through link s2->s0 at 100Mbps$"
check "resume, another pattern" 2 "$ns" sweep -g 'kruskal-tree:switches=3:ratio=3' --seeds 1..2 \
  --measure alltoallv/ring,allgatherv/lr --pattern random:0.5,8 -m 8KiB -o vmeas --resume --progress none
expect "another pattern: another sweep" "$tmp/err" "rows of another sweep"
check "v-measure without a pattern" 2 "$ns" sweep -g 'kruskal-tree:switches=3:ratio=3' --seeds 1 \
  --measure alltoallv/ring -o vnone --progress none
expect "no pattern said" "$tmp/err" "measure alltoallv/ring: pattern: alltoallv needs a size pattern: "
check "a pattern without a v-measure" 2 "$ns" sweep -g 'kruskal-tree:switches=3:ratio=3' --seeds 1 \
  --measure alltoall/ring --pattern uniform -o vnone --progress none
expect "pattern without v-measure said" "$tmp/err" "pattern: no alltoallv or allgatherv measure takes a size pattern$"

# -- MPI: mpirun -np 2 netsched-mpi sweep, when both are here ---------------------------
mpi=$(dirname "$ns")/netsched-mpi
if command -v mpirun >/dev/null && [[ -x $mpi ]]; then
  root=(); [[ $(id -u) -eq 0 ]] && root=(--allow-run-as-root)
  # one machine: the isolated launcher needs no ssh (containers often have none)
  check "mpirun -np 2" 0 env ASAN_OPTIONS=detect_leaks=0 OMPI_MCA_plm=isolated \
    mpirun "${root[@]}" --oversubscribe -np 2 "$mpi" sweep "${grid[@]}" -o mpi-out --progress none
  expect "two ranks" "$tmp/out" "to run on 2 MPI ranks"
  for f in rows.jsonl aggregate.json aggregate.csv; do
    check "mpi $f identical" 0 cmp whole/$f mpi-out/$f
  done
else
  echo "ok - MPI mode skipped (no mpirun or netsched-mpi) # SKIP"
fi

# -- plots: series named by generator, x the parameter the grid varies, units ----------
check "two generators" 0 "$ns" sweep -g 'waxman:switches=10,20' -g 'transit-stub:stubs=2' \
  -g 'waxman:switches=30' --seeds 1..2 --plots path_mean,lr1_max_path --trees bfs -o named --progress none
expect "rows name the generator" named/rows.jsonl '"generator":"waxman","model":"waxman"'
expect "rows name the second" named/rows.jsonl '"generator":"transit-stub","model":"transit-stub"'
expect "same model twice" named/rows.jsonl '"generator":"waxman-2","model":"waxman"'
expect "series named waxman" named/plot-path_mean.gp "index 0 using 1:2:3:4 with yerrorlines pt 1 title 'waxman tree=bfs'"
# transit-stub has no parameter switches: its point sits at its mean switch count, unjoined
expect "series named transit-stub, points" named/plot-path_mean.gp "with yerrorbars pt 2 title 'transit-stub tree=bfs'"
check "no g1" 1 grep -q "'g1" named/plot-path_mean.gp
expect "x: the parameter that varies" named/plot-path_mean.gp "^set xlabel 'switches' noenhanced$"
expect "y unit: switches crossed" named/plot-path_mean.gp "^set ylabel 'mean machine-to-machine path \(switches crossed\)' noenhanced$"
expect "ring unit" named/plot-lr1_max_path.gp "^set ylabel 'LR1 longest ring hop \(switches crossed\)' noenhanced$"
check "x given stays" 0 "$ns" sweep -g 'waxman:switches=10,20' --seeds 1..2 --plots path_mean \
  --x machines -o given-x --progress none
expect "x as given, points" given-x/plot-path_mean.gp "^set xlabel 'machines' noenhanced$"
expect "a metric x does not order a series" given-x/plot-path_mean.gp "with yerrorbars"

# -- a sweep over topology files: [sweep] files, a pattern and a list ---------------------
cp -r "$src/tests/data/sweep-files" "$tmp/sweep-files"
cat > "$tmp/files.ini" <<'EOF'
[sweep]
description = every topology of a directory
output = files-out
files = sweep-files/*.topo, sweep-files/d-ring.graphml
trees = none,bfs
plots = path_mean
EOF
check "sweep over files" 0 "$ns" sweep "$tmp/files.ini" -j 2 --progress none
expect "one task per file and tree" "$tmp/out" ": 8 tasks \(2 points x 4 files\)"
check "rows: header and 8" 0 test "$(wc -l < files-out/rows.jsonl)" -eq 9
# the pattern's matches in name order, notes.txt left out, then the listed file
expect "rows name the file" files-out/rows.csv "^[0-9a-f]+,0,0,1,files,files,none,,sweep-files/a-star.topo,ok,4,1,4,"
expect "second file" files-out/rows.csv "^[0-9a-f]+,1,0,2,files,files,none,,sweep-files/b-pair.topo,ok,6,2,7,"
expect "a graph file, shortest paths" files-out/rows.csv "^[0-9a-f]+,2,0,3,files,files,none,,sweep-files/c-ring.topo,ok,6,3,9,"
expect "a GraphML file through -T's reader" files-out/rows.csv "^[0-9a-f]+,3,0,4,files,files,none,,sweep-files/d-ring.graphml,ok,6,3,9,"
expect "spanning trees of files" files-out/rows.csv "^[0-9a-f]+,6,1,3,files,files,bfs,,sweep-files/c-ring.topo,ok,6,3,8,"
check "no notes.txt" 1 grep -q notes files-out/rows.csv
expect "statistics over the files" files-out/aggregate.csv '^0,files tree=none,files,files,none,,machines,4,5.5,1,'
check "plot over files" 0 test -s files-out/plot-path_mean.gp
check "files: rerun resumes" 0 "$ns" sweep "$tmp/files.ini" --progress none --resume
expect "files: nothing to run" "$tmp/out" "; 8 done, 0 to run"
check "files: shard 0/2" 0 "$ns" sweep "$tmp/files.ini" -o files-parts --shard 0/2 --progress none
check "files: shard 1/2" 0 "$ns" sweep "$tmp/files.ini" -o files-parts --shard 1/2 --progress none
check "files: merge" 0 "$ns" sweep merge "$tmp/files.ini" -o files-parts
for f in rows.jsonl rows.csv aggregate.json aggregate.csv; do
  check "files: merged $f = whole" 0 cmp files-out/$f files-parts/$f
done
# a file that changes gives another sweep: its old rows are refused, not kept
echo "# edited" >> "$tmp/sweep-files/b-pair.topo"
check "files: an edited file" 2 "$ns" sweep "$tmp/files.ini" --progress none --resume
expect "files: rows of another sweep" "$tmp/err" "files-out/rows.jsonl:1: rows of another sweep"
check "--files on the command line" 0 "$ns" sweep --files 'sweep-files/a-*.topo,sweep-files/c-ring.topo' \
  --format native -o cli-files --progress none
expect "--files: two tasks" "$tmp/out" ": 2 tasks \(1 point x 2 files\)"
expect "--files: rows name the files" cli-files/rows.csv ",sweep-files/c-ring.topo,ok,"
# the files are read as -T reads them: -f's format options too (one meaning: topology_spec.h)
check "--files with format options" 0 "$ns" sweep --files 'sweep-files/d-ring.graphml' \
  --format graphml:largest-component:bandwidth=1Gbps -o cli-graphml --progress none
expect "--files: format options read" cli-graphml/rows.csv ",sweep-files/d-ring.graphml,ok,6,3,9,"
check "--files with a bad format option" 2 "$ns" sweep --files 'sweep-files/d-ring.graphml' \
  --format graphml:colour=red -o o --progress none
expect "--files: the reader's message" "$tmp/err" "format 'graphml:colour=red'"
check "--files matching nothing" 2 "$ns" sweep --files 'sweep-files/*.xml' -o o
expect "--files: option named" "$tmp/err" "^netsched: --files: files 'sweep-files/\*.xml' matches no file$"
printf '[sweep]\noutput = o\nfiles = sweep-files/*.xml\n' > "$tmp/nomatch.ini"
check "files: pattern matching nothing" 2 "$ns" sweep "$tmp/nomatch.ini"
expect "files: says so" "$tmp/err" "nomatch.ini:3: files 'sweep-files/\*.xml' matches no file$"
printf '[sweep]\noutput = o\nfiles = */a-star.topo\n' > "$tmp/dirpat.ini"
check "files: pattern in a directory" 2 "$ns" sweep "$tmp/dirpat.ini"
expect "files: file name only" "$tmp/err" "dirpat.ini:3: files '\*/a-star.topo': a pattern goes in the file name only"
printf '[sweep]\noutput = o\nfiles = sweep-files/a-star.topo\nseeds = 1..3\n' > "$tmp/fseeds.ini"
check "files: with seeds" 2 "$ns" sweep "$tmp/fseeds.ini"
expect "files: no seeds" "$tmp/err" "fseeds.ini:4: seeds: a sweep over files has one task per file"
printf '[sweep]\noutput = o\nfiles = sweep-files/a-star.topo\n[generator w]\nmodel = waxman\nswitches = 4\n' > "$tmp/fgen.ini"
check "files: with a generator" 2 "$ns" sweep "$tmp/fgen.ini"
expect "files: no generators" "$tmp/err" "fgen.ini:4: \[generator w\]: a sweep over files"
printf '[sweep]\noutput = o\nfiles = sweep-files/missing.topo\n' > "$tmp/fmissing.ini"
check "files: a missing file" 2 "$ns" sweep "$tmp/fmissing.ini"
expect "files: names it" "$tmp/err" "fmissing.ini:3: files 'sweep-files/missing.topo': no such file$"

# -- bound --json for every collective ----------------------------------------------------
for c in alltoall allgather bcast; do
  check "bound --json $c" 0 "$ns" bound -T gen:kruskal-tree:2,6:machines=4 -c "$c" --json
  expect "bound $c format" "$tmp/out" '"format" : "netsched-bound"'
  expect "bound $c collective" "$tmp/out" "\"collective\" : \"$c\""
done
expect "bcast algorithms" "$tmp/out" '"algorithm" : "binary-cf"'
check "allgather on a graph" 0 "$ns" bound -T gen:waxman:1,10 -c allgather --json
expect "rings need a tree" "$tmp/out" '"rings_error" : "logical rings need a tree topology'

# -- path statistics of a large graph (issue #24) -------------------------------------------
# 200 switches: the searches run 64 host switches at a time, so four words of
# sources; the histogram main computed one search at a time over the whole topology
check "paths of a 1000-machine Waxman graph" 0 "$ns" sweep -g 'waxman:machines=1000:ratio=5' \
  --seeds 1 --metrics paths -j 1 -o "$tmp/paths1000" --progress none
expect "paths: the histogram" "$tmp/paths1000/rows.jsonl" \
  '"path_min":1,"path_mean":4\.785955956,"path_max":9,.*"path_hist":\[0,4964,20752,84866,260696,383486,195346,43758,4680,452\]\}$'
check "paths of a 1000-machine Waxman tree" 0 "$ns" sweep -g 'waxman:machines=1000:ratio=5' \
  --seeds 2 --trees bfs --metrics paths -j 1 -o "$tmp/paths1000t" --progress none
expect "paths: the tree's histogram" "$tmp/paths1000t/rows.jsonl" \
  '"path_min":1,"path_mean":7\.242622623,"path_max":12,.*"path_hist":\[0,5146,9724,21828,43890,78216,131042,209490,252222,175892,62242,8940,368\]\}$'

echo "$passed passed, $failures failed"
[[ $failures -eq 0 ]]
