//! The weights of the draughts evaluation (`eval.rs`), `[opening, ending]` per feature in
//! hundredths of a man. Set by hand (the evaluation before tuning); `dames tune fit` rewrites
//! this file.

pub(super) const WEIGHTS: [[i16; 2]; 70] = [
    [127, 127], // man on 1
    [127, 127], // man on 2
    [127, 127], // man on 3
    [127, 127], // man on 4
    [127, 127], // man on 5
    [124, 124], // man on 6
    [124, 124], // man on 7
    [124, 124], // man on 8
    [124, 124], // man on 9
    [124, 124], // man on 10
    [121, 121], // man on 11
    [126, 126], // man on 12
    [126, 126], // man on 13
    [126, 126], // man on 14
    [121, 121], // man on 15
    [118, 118], // man on 16
    [123, 123], // man on 17
    [123, 123], // man on 18
    [123, 123], // man on 19
    [118, 118], // man on 20
    [115, 115], // man on 21
    [120, 120], // man on 22
    [120, 120], // man on 23
    [120, 120], // man on 24
    [115, 115], // man on 25
    [112, 112], // man on 26
    [117, 117], // man on 27
    [117, 117], // man on 28
    [117, 117], // man on 29
    [112, 112], // man on 30
    [109, 109], // man on 31
    [114, 114], // man on 32
    [114, 114], // man on 33
    [114, 114], // man on 34
    [109, 109], // man on 35
    [106, 106], // man on 36
    [111, 111], // man on 37
    [111, 111], // man on 38
    [111, 111], // man on 39
    [106, 106], // man on 40
    [103, 103], // man on 41
    [103, 103], // man on 42
    [103, 103], // man on 43
    [103, 103], // man on 44
    [103, 103], // man on 45
    [100, 100], // man on 46
    [100, 100], // man on 47
    [100, 100], // man on 48
    [100, 100], // man on 49
    [100, 100], // man on 50
    [300, 300], // king
    [0, 0],     // king mobility
    [0, 0],     // king on the long diagonal
    [0, 0],     // first king
    [190, 190], // runaway, 1 rows to go
    [160, 160], // runaway, 2 rows to go
    [130, 130], // runaway, 3 rows to go
    [100, 100], // runaway, 4 rows to go
    [70, 70],   // runaway, 5 rows to go
    [8, 8],     // outpost
    [0, 0],     // backed man
    [0, 0],     // isolated man
    [0, 0],     // man move
    [0, 0],     // locked man
    [0, 0],     // wing imbalance (men)
    [0, 0],     // wing imbalance (tempo)
    [6, 6],     // back-row man, no enemy king
    [0, 0],     // threat by the side not to move
    [9, 9],     // trade when ahead
    [0, 0],     // side to move
];
