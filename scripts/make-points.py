#!/usr/bin/env python3
"""Writes a mock galaxy catalogue with a known cosmic web, as point data for the volume model.

A few nodes lie at random in a box of 100 x 100 x 100 units (read them as megaparsecs). Filaments
join them: the minimum spanning tree of the nodes, so the web is one piece, and a few of the
shortest other pairs, so it has loops. The points are of three kinds (the default shares):

  clusters    45%: a Gaussian blob of 1.5 units around each node, the richer nodes (a Pareto draw)
                   holding more;
  filaments   45%: spread evenly along each filament, in proportion to its length, with a Gaussian
                   scatter of 0.8 units across it;
  field       10%: uniform in the box, the noise a reconstruction has to ignore.

Each point has a weight (a luminosity, lognormal around 1) in the fourth column. The rows are
shuffled, as a real catalogue is not ordered by structure. The CSV has a header line `x,y,z,weight`
and three decimals a value.

  python3 scripts/make-points.py --seed 3 --points 20000 --out examples/galaxies.csv

`--truth FILE` writes the true web beside it: one filament a row, `x0,y0,z0,x1,y1,z1`, its two
nodes in the catalogue's units (scripts/web-recall.py measures a grown network against it).
`--cluster-share` and `--field-share` change the mix (the filaments take the rest); the nodes and
filaments depend only on --seed and --nodes, so catalogues of several sizes share one truth:

  python3 scripts/make-points.py --seed 7 --points 4000 --nodes 24 --cluster-share 0.15 \\
      --field-share 0.15 --out assets/points/cosmic-web.csv --truth assets/points/cosmic-web-truth.csv

The same arguments write the same bytes (numpy's PCG64 from --seed). Needs numpy (python3-numpy).
"""
import argparse
import sys

import numpy as np

BOX = 100.0
CLUSTER_SIGMA = 1.5
FILAMENT_SIGMA = 0.8


def spanning_tree_and_loops(nodes, extra):
    """The edges (i, j) of the nodes' minimum spanning tree (Prim) and the `extra` shortest others."""
    n = len(nodes)
    dist = np.linalg.norm(nodes[:, None, :] - nodes[None, :, :], axis=2)
    inside = [0]
    edges = set()
    while len(inside) < n:
        best = None
        for i in inside:
            for j in range(n):
                if j not in inside and (best is None or dist[i, j] < dist[best]):
                    best = (i, j)
        edges.add((min(best), max(best)))
        inside.append(best[1])
    others = sorted((dist[i, j], i, j) for i in range(n) for j in range(i + 1, n) if (i, j) not in edges)
    edges.update((i, j) for _, i, j in others[:extra])
    return sorted(edges)


def catalogue(rng, count, node_count, cluster_share, field_share):
    nodes = rng.uniform(0.15 * BOX, 0.85 * BOX, size=(node_count, 3))
    edges = spanning_tree_and_loops(nodes, extra=max(1, node_count // 3))

    n_clusters = int(count * cluster_share)
    n_field = int(count * field_share)
    n_filaments = count - n_clusters - n_field

    richness = rng.pareto(1.5, size=node_count) + 1.0
    owner = rng.choice(node_count, size=n_clusters, p=richness / richness.sum())
    clusters = nodes[owner] + rng.normal(0.0, CLUSTER_SIGMA, size=(n_clusters, 3))

    a = nodes[[i for i, _ in edges]]
    b = nodes[[j for _, j in edges]]
    lengths = np.linalg.norm(b - a, axis=1)
    which = rng.choice(len(edges), size=n_filaments, p=lengths / lengths.sum())
    t = rng.uniform(0.0, 1.0, size=(n_filaments, 1))
    filaments = a[which] + t * (b[which] - a[which]) + rng.normal(0.0, FILAMENT_SIGMA, size=(n_filaments, 3))

    field = rng.uniform(0.0, BOX, size=(n_field, 3))

    xyz = np.concatenate([clusters, filaments, field])
    weight = rng.lognormal(0.0, 0.5, size=(count, 1))
    rows = np.concatenate([xyz, weight], axis=1)
    return rows[rng.permutation(count)], nodes, edges


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--points", type=int, default=20000, help="how many points (default 20000)")
    parser.add_argument("--nodes", type=int, default=12, help="nodes of the web (default 12)")
    parser.add_argument("--cluster-share", type=float, default=0.45,
                        help="share of the points in the clusters at the nodes (default 0.45)")
    parser.add_argument("--field-share", type=float, default=0.10,
                        help="share of the points uniform in the box (default 0.10)")
    parser.add_argument("--out", required=True, help="the CSV to write")
    parser.add_argument("--truth", help="also write the filaments, x0,y0,z0,x1,y1,z1 a row, to this CSV")
    args = parser.parse_args(argv)
    if args.points < 1:
        parser.error(f"--points {args.points}: at least 1")
    if args.nodes < 2:
        parser.error(f"--nodes {args.nodes}: at least 2")
    for name, share in (("--cluster-share", args.cluster_share), ("--field-share", args.field_share)):
        if not 0.0 <= share <= 1.0:
            parser.error(f"{name} {share}: a share from 0 to 1")
    if args.cluster_share + args.field_share > 1.0:
        parser.error(f"--cluster-share {args.cluster_share} and --field-share {args.field_share}: "
                     "more than 1 together")

    rows, nodes, edges = catalogue(np.random.default_rng(args.seed), args.points, args.nodes,
                                   args.cluster_share, args.field_share)
    with open(args.out, "w", newline="\n") as out:
        out.write("x,y,z,weight\n")
        np.savetxt(out, rows, fmt="%.3f", delimiter=",")
    if args.truth:
        with open(args.truth, "w", newline="\n") as out:
            out.write("x0,y0,z0,x1,y1,z1\n")
            np.savetxt(out, [np.concatenate([nodes[i], nodes[j]]) for i, j in edges], fmt="%.3f", delimiter=",")
    print(f"{args.out}: {args.points} points, {len(nodes)} nodes, {len(edges)} filaments", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
