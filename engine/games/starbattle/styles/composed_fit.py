"""The fitted likeness of the composed style (engine/core/likeness.py): written by
    .venv/bin/python bench/fit_likeness.py --style composed --stars 1 --boards 300 --sizes 6 7 8 9 10 11 13 15 --quantile 0.85 --strength 1.0 --write
against queens-handmade.jsonl; refit after changing the drawing."""

from engine.core.likeness import Likeness

LIKENESS = Likeness(
    names=('smallest', 'second_smallest', 'median_size', 'second_largest', 'largest', 'tiny', 'straight', 'boundary', 'perimeter_per_cell', 'fill', 'interior', 'largest_share', 'mirrored', 'corners', 'rectangles', 'geometric', 'smallest*size', 'second_smallest*size', 'median_size*size', 'second_largest*size', 'largest*size', 'tiny*size', 'straight*size', 'boundary*size', 'perimeter_per_cell*size', 'fill*size', 'interior*size', 'largest_share*size', 'mirrored*size', 'corners*size', 'rectangles*size', 'geometric*size', 'size'),
    means=(0.264708, 0.391702, 0.767372, 1.829874, 2.690167, 0.162997, 0.142801, 0.668036, 2.116815, 0.689899, 0.075916, 0.281534, 0.602346, 0.956098, 0.187623, 0.649857, 0.064696, 0.087157, 0.244976, 1.088476, 1.592377, 0.052511, 0.044491, 0.27151, 0.866858, 0.2849, 0.066937, 0.109475, 0.25609, 0.34857, 0.055127, 0.219633, 0.441028),
    scales=(0.123229, 0.166675, 0.23105, 0.548362, 0.9095, 0.106213, 0.111016, 0.066068, 0.151046, 0.061463, 0.060109, 0.071254, 0.097918, 0.154479, 0.12545, 0.160384, 0.163084, 0.229805, 0.475835, 1.662034, 2.494028, 0.118581, 0.111415, 0.446452, 1.435871, 0.471604, 0.103107, 0.194926, 0.423588, 0.615755, 0.13478, 0.421749, 0.705654),
    weights=(0.287649, 0.499441, 0.332764, -0.369809, -0.209021, 0.889171, -0.951082, 1.423638, 0.547317, 0.240454, 1.102195, 0.085096, -0.421612, -0.459019, 0.497594, 0.063545, 0.47561, 0.238957, 0.937726, 0.367667, -0.068686, 0.369379, -0.419067, 0.134374, -0.601026, -0.025156, 0.423478, -0.306029, -0.125226, 0.353193, 0.272645, -0.639255, 0.073521),
    intercept=-0.640819,
    log_caps={6: 0.135777, 7: 0.609357, 8: 0.069219, 9: 0.264961, 10: 0.279482, 11: 0.35958, 13: 0.096307, 15: 0.645968},
)
