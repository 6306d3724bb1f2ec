#include "sim/vta/Counters.h"

namespace nestor::vta {

std::vector<std::pair<std::string, std::uint64_t>> Counters::named() const
{
    return {{"inp_load_nbytes", inpLoadNbytes}, {"wgt_load_nbytes", wgtLoadNbytes},
            {"acc_load_nbytes", accLoadNbytes}, {"uop_load_nbytes", uopLoadNbytes},
            {"out_store_nbytes", outStoreNbytes}, {"gemm_counter", gemmCounter},
            {"alu_counter", aluCounter}};
}

} // namespace nestor::vta
