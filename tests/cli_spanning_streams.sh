#!/usr/bin/env bash
# The random streams of the spanning trees stay what they were when the
# GT-ITM results (results/gt-itm) and the --spanning trees were published:
# GT-ITM's tree=METHOD (its own PCG32 stream, Wilson's walk for uniform)
# and --spanning METHOD:SEED (igraph's default generator, igraph's walk for
# uniform) both go through ns_spanning_tree_edges (platforms/routing/
# spanning.c). Each line below is a topology written by `topo convert`
# and the first 16 hex digits of its SHA-256, recorded from the two
# implementations before they were merged; a changed stream changes them.
source "$(dirname "${BASH_SOURCE[0]}")/cli-common.bash"

digest() { # a failed conversion shows as its exit status, not as a digest
  if "$ns" topo convert "$@" >"$tmp/topo" 2>&1; then sha256sum <"$tmp/topo" | cut -c1-16
  else echo "exit $?"; fi
}

got="$tmp/got"
for seed in 1 2 3 5 8 13 21 34; do
  for tree in none bfs dfs kruskal uniform; do
    echo "gen:waxman:$seed,14:tree=$tree $(digest "gen:waxman:$seed,14:tree=$tree")"
    echo "gen:transit-stub:$seed,1,3,2,4:tree=$tree $(digest "gen:transit-stub:$seed,1,3,2,4:tree=$tree:extra_ss=2")"
  done
  echo "gen:kruskal-tree:$seed,9 $(digest "gen:kruskal-tree:$seed,9")"
  for m in bfs dfs kruskal uniform; do
    echo "--spanning $m:$seed $(digest "gen:waxman:$seed,12" --spanning "$m:$seed")"
    echo "--spanning $m:$seed@L2s1 $(digest gen:fattree:4,3 --spanning "$m:$seed@L2s1")"
  done
done >"$got"

cat >"$tmp/want" <<'WANT'
gen:waxman:1,14:tree=none 10447debc65fd629
gen:transit-stub:1,1,3,2,4:tree=none f0e46fc9491c2b66
gen:waxman:1,14:tree=bfs 31d98bc2c37fff64
gen:transit-stub:1,1,3,2,4:tree=bfs 154780139ae4a0d5
gen:waxman:1,14:tree=dfs b318d8b1afac167d
gen:transit-stub:1,1,3,2,4:tree=dfs 14a24373fa8d1fdd
gen:waxman:1,14:tree=kruskal f86c444c25db1a0f
gen:transit-stub:1,1,3,2,4:tree=kruskal 12cdb8739ef20f0f
gen:waxman:1,14:tree=uniform 9dc7892139d11e5f
gen:transit-stub:1,1,3,2,4:tree=uniform 6028ebbdff698068
gen:kruskal-tree:1,9 8b4309dc7929d221
--spanning bfs:1 dfaeeff2de27d268
--spanning bfs:1@L2s1 c1170a4ce2d74e2a
--spanning dfs:1 6333bd84f85c4d5e
--spanning dfs:1@L2s1 281f5058707c8238
--spanning kruskal:1 b2f4491c952d4631
--spanning kruskal:1@L2s1 250a26c070a41528
--spanning uniform:1 7968ae97f5edb7d5
--spanning uniform:1@L2s1 25f6c954c20f25ac
gen:waxman:2,14:tree=none 8aff58e2b9151680
gen:transit-stub:2,1,3,2,4:tree=none 725bcf7cec3e6499
gen:waxman:2,14:tree=bfs b932fd4b4fa5aecf
gen:transit-stub:2,1,3,2,4:tree=bfs 991959a7be2a373d
gen:waxman:2,14:tree=dfs 78ca9eec5590993e
gen:transit-stub:2,1,3,2,4:tree=dfs e1149ec0cddd05f5
gen:waxman:2,14:tree=kruskal c6583bacbbd91da9
gen:transit-stub:2,1,3,2,4:tree=kruskal 8e042943d69d9948
gen:waxman:2,14:tree=uniform 5c5d0206408dfb9a
gen:transit-stub:2,1,3,2,4:tree=uniform 1a664fa90b704a89
gen:kruskal-tree:2,9 7756b74abaa933da
--spanning bfs:2 b7fac267095111e7
--spanning bfs:2@L2s1 b5c2c1f2d6742ea1
--spanning dfs:2 5002409148f6f7a7
--spanning dfs:2@L2s1 466679d403da3705
--spanning kruskal:2 a286cafbbc8019d7
--spanning kruskal:2@L2s1 696e1141973be922
--spanning uniform:2 52457b0402c85e82
--spanning uniform:2@L2s1 c4b5cc75e0fbf191
gen:waxman:3,14:tree=none 951ecf3ee276e304
gen:transit-stub:3,1,3,2,4:tree=none ddd47da7dce24337
gen:waxman:3,14:tree=bfs 2def7dec24fe734e
gen:transit-stub:3,1,3,2,4:tree=bfs 8de11c6cda21bdcf
gen:waxman:3,14:tree=dfs 52ca55d210ef45b7
gen:transit-stub:3,1,3,2,4:tree=dfs 8e0e93b8c088b58f
gen:waxman:3,14:tree=kruskal 377b8ade2dbc50c1
gen:transit-stub:3,1,3,2,4:tree=kruskal 5aab500679181a3c
gen:waxman:3,14:tree=uniform f36362fd4a2dac41
gen:transit-stub:3,1,3,2,4:tree=uniform c3925b8af04870d1
gen:kruskal-tree:3,9 9391cc7a275e673f
--spanning bfs:3 a5e97a01f55750e8
--spanning bfs:3@L2s1 a45f3cb7f0f4a7d3
--spanning dfs:3 4077c7c84e8610ff
--spanning dfs:3@L2s1 0a941067a5dfeab8
--spanning kruskal:3 e61bc17727f9e692
--spanning kruskal:3@L2s1 fb990b24ae95938a
--spanning uniform:3 2bd16bd9069ecc25
--spanning uniform:3@L2s1 04d14e4a9022af29
gen:waxman:5,14:tree=none bf4d70653ec271ff
gen:transit-stub:5,1,3,2,4:tree=none 024909b2e84939eb
gen:waxman:5,14:tree=bfs 7eca5d92647503b2
gen:transit-stub:5,1,3,2,4:tree=bfs aa7da3825ccae171
gen:waxman:5,14:tree=dfs 002d4f5621685a4e
gen:transit-stub:5,1,3,2,4:tree=dfs 44902b88c58c637c
gen:waxman:5,14:tree=kruskal 1ff636b9e3111dd5
gen:transit-stub:5,1,3,2,4:tree=kruskal 70bb31b7abe60e21
gen:waxman:5,14:tree=uniform d1777bd32115aa0f
gen:transit-stub:5,1,3,2,4:tree=uniform 4d4040e23e2f2fe7
gen:kruskal-tree:5,9 c70a24ef45439a80
--spanning bfs:5 3a98b3d2fbb2fa65
--spanning bfs:5@L2s1 cea03c433168e9f7
--spanning dfs:5 a8ec79738087da13
--spanning dfs:5@L2s1 41bb41a86d51f93d
--spanning kruskal:5 bd5cdeb832ec2dd9
--spanning kruskal:5@L2s1 f07ddc5a072b0eb5
--spanning uniform:5 fb1b0b08aad59fcd
--spanning uniform:5@L2s1 8769e02b576f7a95
gen:waxman:8,14:tree=none 9478a64be0be36a9
gen:transit-stub:8,1,3,2,4:tree=none 511fb225c7032be8
gen:waxman:8,14:tree=bfs 9702535d7cb8f10e
gen:transit-stub:8,1,3,2,4:tree=bfs da82f2b70c736e94
gen:waxman:8,14:tree=dfs e3acf9fc71eb16b6
gen:transit-stub:8,1,3,2,4:tree=dfs f70132f6dd17f92d
gen:waxman:8,14:tree=kruskal 54047a88221b837c
gen:transit-stub:8,1,3,2,4:tree=kruskal 902f3ec2bd48d31e
gen:waxman:8,14:tree=uniform 680f50fd8419a79b
gen:transit-stub:8,1,3,2,4:tree=uniform 6079bb0d527ec669
gen:kruskal-tree:8,9 b44bcf1cac4f303b
--spanning bfs:8 eff8b4421fa6364d
--spanning bfs:8@L2s1 a55eb3ae3357d791
--spanning dfs:8 b2b450bb734ef616
--spanning dfs:8@L2s1 c8d59142b83cadfd
--spanning kruskal:8 b0b0fe301ac11cca
--spanning kruskal:8@L2s1 f1cc85e07057ab70
--spanning uniform:8 831bcff7db369538
--spanning uniform:8@L2s1 8990f6a72699673e
gen:waxman:13,14:tree=none 7aed5d5153035248
gen:transit-stub:13,1,3,2,4:tree=none d7508c6808a731af
gen:waxman:13,14:tree=bfs eeda360e8dc5c536
gen:transit-stub:13,1,3,2,4:tree=bfs 5e0e2140d2af70e6
gen:waxman:13,14:tree=dfs aea0980cfe7fe3bf
gen:transit-stub:13,1,3,2,4:tree=dfs d5029d32a5efa613
gen:waxman:13,14:tree=kruskal 47ad041c1dbc6b08
gen:transit-stub:13,1,3,2,4:tree=kruskal 6d509064dbd2f665
gen:waxman:13,14:tree=uniform 9d7ef593206e39ea
gen:transit-stub:13,1,3,2,4:tree=uniform 9c636594b3482d9a
gen:kruskal-tree:13,9 69af7b2a8602c956
--spanning bfs:13 7b520d6ee001b205
--spanning bfs:13@L2s1 b2971715f827410b
--spanning dfs:13 6338728b69e3529b
--spanning dfs:13@L2s1 ba9cc2a57b708d5d
--spanning kruskal:13 08334db46ac8f815
--spanning kruskal:13@L2s1 3deb350e2525410e
--spanning uniform:13 577c6363123d26ec
--spanning uniform:13@L2s1 5197d103b6e7c83e
gen:waxman:21,14:tree=none 8553a16aa0dc68de
gen:transit-stub:21,1,3,2,4:tree=none 66285802d8573ce3
gen:waxman:21,14:tree=bfs f67b26f54ccc14c4
gen:transit-stub:21,1,3,2,4:tree=bfs a4bd446f297166e4
gen:waxman:21,14:tree=dfs d37bcd7862903828
gen:transit-stub:21,1,3,2,4:tree=dfs 45b1363d4487820a
gen:waxman:21,14:tree=kruskal 482ae6c9eb3c7e98
gen:transit-stub:21,1,3,2,4:tree=kruskal a16c18194c170f46
gen:waxman:21,14:tree=uniform 67fb61f659cc3dc8
gen:transit-stub:21,1,3,2,4:tree=uniform 4f44c4c6ae684a5f
gen:kruskal-tree:21,9 470ca44613c2ab6c
--spanning bfs:21 8ded6e3241183258
--spanning bfs:21@L2s1 d8d0d3aba9fe7800
--spanning dfs:21 af46de432d641cc0
--spanning dfs:21@L2s1 be1e1270a07a4aa2
--spanning kruskal:21 3f70c378663c7332
--spanning kruskal:21@L2s1 a6cdce7bb7aebcfb
--spanning uniform:21 ad6c6636836f4ade
--spanning uniform:21@L2s1 9e04524906bcd845
gen:waxman:34,14:tree=none 379d569a66355240
gen:transit-stub:34,1,3,2,4:tree=none fc823ac5f4dab7b4
gen:waxman:34,14:tree=bfs 6dd7343adf23e8c5
gen:transit-stub:34,1,3,2,4:tree=bfs 450535843aa2e5c9
gen:waxman:34,14:tree=dfs 0635471cfa7fe487
gen:transit-stub:34,1,3,2,4:tree=dfs 6ba5dedca9f64e8a
gen:waxman:34,14:tree=kruskal c0b2a67dffc15ce6
gen:transit-stub:34,1,3,2,4:tree=kruskal aeb931f48bcf98a1
gen:waxman:34,14:tree=uniform 18e051a5c830d6cf
gen:transit-stub:34,1,3,2,4:tree=uniform dc4c5061078bcfc8
gen:kruskal-tree:34,9 94fdf4571f783320
--spanning bfs:34 cef0009eac37c10a
--spanning bfs:34@L2s1 1a80340b3ec7bb10
--spanning dfs:34 de26d2df4c73b134
--spanning dfs:34@L2s1 8198101031acc282
--spanning kruskal:34 b0aa4055d39d15f9
--spanning kruskal:34@L2s1 55077d978dffab5b
--spanning uniform:34 6d03482bd108aafe
--spanning uniform:34@L2s1 344139f669561b1f
WANT
check "152 spanning-tree topologies byte-identical to the recorded streams" 0 \
  diff "$tmp/want" "$got"
[[ -s "$tmp/out" ]] && sed 's/^/#   /' "$tmp/out" | head -20

echo "$passed passed, $failures failed"
[[ $failures -eq 0 ]]
