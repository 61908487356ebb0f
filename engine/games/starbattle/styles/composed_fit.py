"""The fitted likeness of the composed style (engine/core/likeness.py): written by
    .venv/bin/python bench/fit_likeness.py --style composed --stars 1 --boards 300 --sizes 6 7 8 9 10 11 13 15 --quantile 0.85 --strength 1.0 --write
against queens-handmade.jsonl; refit after changing the drawing."""

from engine.core.likeness import NAMES, Likeness

LIKENESS = {1: Likeness(
    names=('smallest', 'second_smallest', 'median_size', 'second_largest', 'largest', 'tiny', 'straight', 'boundary', 'perimeter_per_cell', 'fill', 'interior', 'largest_share', 'mirrored', 'corners', 'rectangles', 'geometric', 'smallest*size', 'second_smallest*size', 'median_size*size', 'second_largest*size', 'largest*size', 'tiny*size', 'straight*size', 'boundary*size', 'perimeter_per_cell*size', 'fill*size', 'interior*size', 'largest_share*size', 'mirrored*size', 'corners*size', 'rectangles*size', 'geometric*size', 'size'),
    means=(0.27975, 0.409197, 0.772041, 1.81482, 2.646002, 0.140566, 0.123807, 0.672064, 2.107714, 0.681578, 0.074201, 0.277566, 0.599742, 0.957291, 0.169395, 0.652538, 0.07349, 0.095344, 0.250216, 1.083164, 1.550427, 0.038213, 0.0322, 0.273821, 0.858384, 0.279677, 0.064835, 0.106368, 0.255692, 0.351016, 0.044481, 0.215205, 0.441028),
    scales=(0.126727, 0.161805, 0.22619, 0.541834, 0.87277, 0.104089, 0.10956, 0.065853, 0.153742, 0.06208, 0.058418, 0.070308, 0.097058, 0.153972, 0.12622, 0.167376, 0.177377, 0.241039, 0.480256, 1.652697, 2.435678, 0.100852, 0.095046, 0.450066, 1.423624, 0.464159, 0.099256, 0.190216, 0.421944, 0.618039, 0.121041, 0.420233, 0.705654),
    weights=(0.265657, 0.487348, 0.373712, -0.261325, -0.176651, 1.037667, -0.866697, 1.330379, 0.46377, 0.214789, 1.019377, 0.132081, -0.390743, -0.321339, 0.58879, 0.036661, 0.50031, 0.352582, 0.86925, 0.214955, 0.044157, 0.555928, -0.237661, 0.117827, -0.648953, 0.005293, 0.351582, -0.300272, -0.218152, 0.335779, 0.088726, -0.558223, 0.057234),
    intercept=-0.663896,
    log_caps={6: 0.183675, 7: 0.375175, 8: 0.328944, 9: 0.53783, 10: 0.073904, 11: 0.256588, 13: 0.282991, 15: 0.279382},
)}
