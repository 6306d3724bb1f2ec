#pragma once
// An Interstellar `U|V` dataflow (analysis/DataflowNotation.h) as Nestor mapspace constraints,
// so that a search optimizes the loop blocking *inside* that dataflow:
//  * every level with a spatial fanout (fanoutX or fanoutY > 1) gets a spatial-axes constraint:
//    strict: only the U loops may use X and only the V loops Y;
//    replicated (the paper's replication, Section 3.2): any loop may also use an axis to fill it,
//    except the loops the dataflow puts on the other axis (so C|K stays C on X, K on Y);
//  * every U loop whose bound is at least 2 is forced onto X with a spatial factor >= 2 at the
//    innermost level with an X fanout (the fanout nearest the MACs); V loops likewise on Y. A
//    loop of bound 1 cannot be unrolled (the paper leaves such loops out of its count).
// The search then chooses the factors, the temporal blocking and orders, and keep/bypass.
#include "analysis/DataflowNotation.h"
#include "core/MapspaceConstraints.h"

namespace nestor::interstellar {

// `base` is kept (e.g. a project's keep/bypass constraints) and the dataflow's constraints are
// added to it. Throws NestorError (field "dataflow") when a loop of `d` is not a dimension of
// `w`, or when `d` uses an axis along which the architecture has no fanout.
MapspaceConstraints dataflowConstraints(const Dataflow& d, const Workload& w, const Architecture& a, bool replication,
                                        MapspaceConstraints base = {});

// What a dataflow study keeps of a project's constraints: keep/bypass and the minimum
// utilization. Its spatial, factor and permutation constraints would pin one dataflow (the
// Eyeriss-like example forces S onto the array) and conflict with every other.
MapspaceConstraints studyBaseConstraints(const MapspaceConstraints& project);

} // namespace nestor::interstellar
