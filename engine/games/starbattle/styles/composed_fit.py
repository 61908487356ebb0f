"""The fitted likeness of the composed style (engine/core/likeness.py): written by
    .venv/bin/python bench/fit_likeness.py --style composed --stars 1 --boards 300 --sizes 6 7 8 9 10 11 13 15 --quantile 0.85 --strength 1.0 --write
against queens-handmade.jsonl; refit after changing the drawing."""

from engine.core.likeness import Likeness

LIKENESS = Likeness(
    names=('smallest', 'second_smallest', 'median_size', 'second_largest', 'largest', 'tiny', 'straight', 'boundary', 'perimeter_per_cell', 'fill', 'interior', 'largest_share', 'mirrored', 'corners', 'rectangles', 'geometric', 'smallest*size', 'second_smallest*size', 'median_size*size', 'second_largest*size', 'largest*size', 'tiny*size', 'straight*size', 'boundary*size', 'perimeter_per_cell*size', 'fill*size', 'interior*size', 'largest_share*size', 'mirrored*size', 'corners*size', 'rectangles*size', 'geometric*size', 'size'),
    means=(0.239025, 0.341658, 0.738314, 1.898308, 2.862951, 0.228982, 0.207004, 0.645916, 2.14446, 0.718893, 0.091618, 0.299498, 0.609, 0.927511, 0.252546, 0.664299, 0.050921, 0.063414, 0.2344, 1.149272, 1.693443, 0.091196, 0.079731, 0.259097, 0.8855, 0.300931, 0.076382, 0.116743, 0.25887, 0.332767, 0.090421, 0.228224, 0.441028),
    scales=(0.114899, 0.169657, 0.237097, 0.602627, 0.944517, 0.117901, 0.126197, 0.071029, 0.148827, 0.063275, 0.066181, 0.074411, 0.098944, 0.16023, 0.136276, 0.156001, 0.142607, 0.201272, 0.462152, 1.755492, 2.62178, 0.167249, 0.155808, 0.430724, 1.457942, 0.493076, 0.114515, 0.204954, 0.429657, 0.596155, 0.181172, 0.430148, 0.705654),
    weights=(0.384108, 0.690891, 0.411251, -0.685826, -0.183915, 0.633682, -1.301839, 1.330373, 0.842922, 0.237304, 0.603974, 0.015634, -0.459243, -0.402573, 0.566188, 0.079648, 0.662028, 0.371761, 0.902417, 0.393161, -0.111918, -0.06271, -0.621826, 0.095692, -0.378354, 0.078594, 0.765079, -0.223243, -0.135117, 0.334007, 0.310229, -0.271317, 0.24647),
    intercept=-0.848893,
    log_caps={6: 0.254348, 7: 0.439416, 8: 0.106511, 9: -0.149828, 10: 0.006173, 11: -0.032438, 13: 0.258544, 15: 1.10544},
)
