"""Pairwise judging of two completed runs: a `PairwiseJob` judged by an arq job."""
