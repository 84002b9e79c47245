"""nfsp_spiel: Heinrich's self-play family (XFP, FSP, Smooth UCT, NFSP) for OpenSpiel."""

import setuptools

setuptools.setup(
    name="nfsp_spiel",
    version="0.1.0",
    description=("XFP, FSP, Smooth UCT and NFSP (TensorFlow 2) with the papers' "
                 "poker games, as an OpenSpiel plugin."),
    long_description=open("README.md", encoding="utf-8").read(),
    long_description_content_type="text/markdown",
    python_requires=">=3.11",
    # The repository keeps the games in a top-level `games/` folder, but a
    # global `games` module would collide with other projects: it is installed
    # as the namespaced `nfsp_spiel.games` (see BUILD_NOTES.md).
    packages=[*setuptools.find_packages(include=["nfsp_spiel",
                                                 "nfsp_spiel.*"]),
              "nfsp_spiel.games"],
    package_dir={"nfsp_spiel": "nfsp_spiel", "nfsp_spiel.games": "games"},
    # The SmooCT-like Limit Hold'em profile NFSP is measured against (0.3 MB
    # of greedy choices; smooth_uct_lhe.shipped_profile).
    package_data={"nfsp_spiel": ["data/*.npz"]},
    install_requires=[
        "open_spiel==2.0.*",
        "tensorflow==2.21.*",
        # TF 2.21 no longer installs TensorBoard; the curve logger writes to it.
        "tensorboard==2.21.*",
        "numpy>=1.26",
        "absl-py>=2.1",
        # Hand ranking for River poker showdowns (BUILD_NOTES.md).
        "phevaluator>=0.6",
        # Smooth UCT's simulation kernel (BUILD_NOTES.md).
        "numba>=0.60",
        # One BLAS thread for the public trees' small products (BUILD_NOTES.md).
        "threadpoolctl>=3.1",
        # Learning-curve plots and match progress bars (evaluation module).
        "matplotlib>=3.8",
        "tqdm>=4.66",
    ],
    extras_require={
        # eval7 is a second, independent hand evaluator the tests check against;
        # pytest-xdist runs the suite on every core (pytest.ini).
        "test": ["pytest>=8", "pytest-xdist>=3.5", "eval7>=0.1.11"],
        # The t-SNE map of NFSP's Limit Hold'em network (docs/figures).
        "figures": ["scikit-learn>=1.4"],
        # nfsp_spiel.nfsp.distributed: NFSP's actors and learner on Ray.
        "distributed": ["ray>=2.50"],
        # The documentation site (mkdocs.yml; tests/docs/test_site.py builds it).
        "docs": ["mkdocs>=1.6"],
    },
)
