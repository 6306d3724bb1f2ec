#pragma once
// Interstellar's dataflow notation (Yang et al., ASPLOS'20, Section 3.2): `U|V` names the loops
// unrolled across the two axes of a 2-D PE array; several loops on one axis are *replication*
// (`C|KX`), written in order of communication distance: the leftmost loop varies fastest
// between neighbouring PEs (Fig. 3: in `CK` adjacent PEs differ in C).
//
// Axes. The paper puts U on the vertical and V on the horizontal axis; Nestor maps U to the
// array's X axis and V to its Y axis (as MapspaceConstraints' "C|K" does). The array is the
// MAC array: its X coordinate is composed of every level's spatial X loops (Mapping.h).
//
// Letters. The paper's names of the seven conv loops and Nestor's (makeConv2d):
//     paper  Nestor  loop
//     B      N       batch
//     K      M       output channels
//     C      C       input channels
//     X      P       output rows       (input row = X + FX: Nestor's rank P + R)
//     Y      Q       output columns    (input column = Y + FY: Nestor's rank Q + S)
//     FX     R       filter rows
//     FY     S       filter columns
// The parser accepts either set of letters (the two share only C, with the same meaning),
// case-insensitively, with optional blanks or commas between loops; a Dataflow holds Nestor names.
// Text from dataflowText() parses back to the same Dataflow.
#include "arch/Architecture.h"
#include "mapping/Mapping.h"
#include "workload/Workload.h"

#include <cstdint>
#include <string>
#include <vector>

namespace nestor {

struct Dataflow {
    std::vector<std::string> x;  // Nestor dimension names on X (U), nearest-neighbour loop first
    std::vector<std::string> y;  // on Y (V)
    bool operator==(const Dataflow&) const = default;
};

// The paper's name of a Nestor conv dimension ("R" -> "FX"); other names are returned as is.
std::string paperDimName(const std::string& nestorDim);
// Nestor's name of a paper or Nestor conv letter ("FX" or "fx" or "R" -> "R"); empty if neither.
std::string nestorDimName(const std::string& letter);

// Parses "C|K", "FY|Y", "C|KX", "X|", "R S|P" ... Throws NestorError with field `field` and a
// message naming the 1-based character position of the offending text: a letter that names no
// conv loop, no '|' or more than one, a loop twice on one axis, nothing on either side.
// One side may be empty (a 1-D dataflow such as Table 4's OS4 "X").
Dataflow parseDataflow(const std::string& text, const std::string& field = "dataflow");

// "C|KX" (paper letters, the default) or "C|MP" (Nestor letters), loops joined without blanks
// (parses back). A name that is no conv loop (G of a grouped conv, a custom workload's names)
// is printed as it is, and then every loop is separated by a blank; such text does not parse.
std::string dataflowText(const Dataflow& d, bool paperLetters = true);
// True when every dimension of `w` has a Nestor conv name (N M C P Q R S, and G): the paper's
// letters then name its loops. A GEMM's M N K do not (its K is no conv loop): print those as they are.
bool hasConvLoops(const Workload& w);
// dataflowText(d, hasConvLoops(w)).
std::string dataflowText(const Workload& w, const Dataflow& d);

// The dataflow of a mapping and the usual name that applies to it.
//
// U|V: every spatial loop of bound > 1 of every level, X loops on U and Y loops on V, ordered
// innermost (fastest-varying MAC coordinate) first; a dimension unrolled on one axis at several
// levels appears once, at its innermost place, with the product of its factors.
//
// Name, first rule that applies (PE-level = a storage level with as many instances as there are
// MACs, i.e. private to one MAC; "keeps" = Mapping::keeps):
//  1. "no local reuse" (Eyeriss, Chen et al. ISCA'16, Sec. V): no PE-level level keeps any
//     tensor (there is none, or every one bypasses everything): operands come from shared
//     buffers every MAC.
//  2. "row-stationary" (Interstellar Table 1, FY|Y, and its mirror FX|X): a filter loop on one
//     axis and the output loop of the same window on the other (S and Q, or R and P, in either
//     orientation), and a PE-level level keeps the weights (the filter row each PE holds).
//  3. "<T>-stationary" (Eyeriss's stationarity): take the innermost temporal loop of bound > 1
//     in the whole nest (the loop the MACs step fastest); the tensor T it does not index stays in
//     place while it turns. If T is kept at a PE-level level the name is weight-, output- or
//     input-stationary (T = Weights, the read-write tensor, Inputs; another tensor gives
//     "<name>-stationary"). For a conv every loop leaves exactly one tensor unindexed:
//     N, P, Q -> weights; C, R, S -> outputs; M -> inputs.
//  4. Otherwise no name (empty), with the reason.
struct DataflowClass {
    Dataflow spatial;
    std::vector<std::int64_t> xFactors, yFactors;  // parallel to spatial.x / spatial.y
    std::string name;    // "row-stationary", "weight-stationary", ..., or empty
    std::string reason;  // one sentence: which rule decided and on what
    bool paperLetters = true;  // hasConvLoops of the classified workload
    std::string text() const { return dataflowText(spatial, paperLetters); }
};

// The mapping must fit the workload and architecture (Mapping::validate); throws NestorError if not.
DataflowClass classifyDataflow(const Workload& w, const Architecture& a, const Mapping& m);

} // namespace nestor
