//! The weights of the draughts evaluation (`eval.rs`), `[opening, ending]` per feature in
//! hundredths of a man, fitted by `dames tune fit` (docs/ai.md, "Tuning") from the hand-set
//! weights of the linear evaluation (with the draw counters in the search) on 1 200 games of
//! Expert against itself and 40 games against the dame-rs engine, both played by the release
//! build with the hand-set weights:
//!
//! ```text
//! dames tune gen --games 1200 --nodes 5000 --seed 1 --threads 1 --out self1.txt
//! dames match --a "dames hub" --b "dame hub" --games 40 --move-time 0.2 --seed 1 --pdn m1.pdn
//! dames tune pdn --out dame1.txt m1.pdn
//! dames tune fit --data self1.txt --data dame1.txt --epochs 1500 --out weights.rs
//! ```
//!
//! 123 734 positions (a tenth held out), scale 148.8; mean squared error 0.088570 → 0.083722,
//! held out 0.088470 → 0.083244. (The match games depend on the clock, so only the self-play
//! part is reproducible exactly.)

pub(super) const WEIGHTS: [[i16; 2]; 70] = [
    [127, 127], // man on 1
    [127, 127], // man on 2
    [127, 127], // man on 3
    [127, 127], // man on 4
    [127, 127], // man on 5
    [125, 127], // man on 6
    [124, 125], // man on 7
    [124, 123], // man on 8
    [125, 125], // man on 9
    [126, 127], // man on 10
    [123, 123], // man on 11
    [123, 122], // man on 12
    [125, 124], // man on 13
    [127, 133], // man on 14
    [125, 118], // man on 15
    [112, 115], // man on 16
    [119, 122], // man on 17
    [122, 122], // man on 18
    [123, 126], // man on 19
    [119, 119], // man on 20
    [119, 118], // man on 21
    [111, 115], // man on 22
    [108, 116], // man on 23
    [121, 122], // man on 24
    [121, 106], // man on 25
    [128, 113], // man on 26
    [114, 116], // man on 27
    [123, 116], // man on 28
    [117, 115], // man on 29
    [98, 107],  // man on 30
    [105, 98],  // man on 31
    [126, 121], // man on 32
    [130, 114], // man on 33
    [116, 109], // man on 34
    [96, 112],  // man on 35
    [102, 99],  // man on 36
    [119, 119], // man on 37
    [123, 117], // man on 38
    [113, 110], // man on 39
    [105, 107], // man on 40
    [98, 98],   // man on 41
    [113, 112], // man on 42
    [106, 107], // man on 43
    [101, 101], // man on 44
    [105, 96],  // man on 45
    [99, 95],   // man on 46
    [96, 104],  // man on 47
    [105, 104], // man on 48
    [100, 99],  // man on 49
    [94, 97],   // man on 50
    [302, 306], // king
    [3, 7],     // king mobility
    [2, 7],     // king on the long diagonal
    [6, 30],    // first king
    [191, 185], // runaway, 1 rows to go
    [154, 134], // runaway, 2 rows to go
    [122, 103], // runaway, 3 rows to go
    [96, 80],   // runaway, 4 rows to go
    [66, 54],   // runaway, 5 rows to go
    [5, 7],     // outpost
    [9, -4],    // backed man
    [-1, -5],   // isolated man
    [5, 2],     // man move
    [5, 0],     // locked man
    [-1, -17],  // wing imbalance (men)
    [0, 2],     // wing imbalance (tempo)
    [-1, 20],   // back-row man, no enemy king
    [11, 12],   // threat by the side not to move
    [50, -16],  // trade when ahead
    [3, 7],     // side to move
];
