#pragma once
// `nestor-cli vta layer|network|sweep`: the lowering of int8 layers to VTA programs run on the
// simulator (engine/sim/vta/lowering/): one layer, ResNet-18, or a configuration sweep with
// its area-vs-cycles Pareto front. Progress on stderr; Ctrl-C cancels.
#include <ostream>
#include <string>
#include <vector>

namespace nestor::cli {

bool isVtaNetworkAction(const std::string& action);
std::string vtaNetworkUsage();
int runVtaNetworkCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace nestor::cli
