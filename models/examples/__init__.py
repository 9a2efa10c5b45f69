"""Worked examples: ordinary Mesa models made steerable with `mam_bench.adapter.MesaWorld`."""
