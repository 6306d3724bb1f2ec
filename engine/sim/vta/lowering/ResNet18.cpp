#include "sim/vta/lowering/ResNet18.h"

#include <cmath>

namespace nestor::vta {

int requantShift(std::uint64_t terms)
{
    return 3 + static_cast<int>(std::lround(0.5 * std::log2(static_cast<double>(terms < 1 ? 1 : terms))));
}

std::vector<LayerSpec> resnet18Layers(int imageSize, int batch)
{
    std::vector<LayerSpec> net;
    auto last = [&] { return static_cast<int>(net.size()) - 1; };
    auto conv = [&](std::string name, int from, int c, int h, int k, int r, int stride, bool relu) {
        const int pad = r / 2;
        net.push_back(convLayer(std::move(name), batch, c, h, h, k, r, r, stride, pad,
                                requantShift(std::uint64_t(c) * r * r), relu, {from}));
        return last();
    };
    int x = conv("conv1", -1, 3, imageSize, 64, 7, 2, true);
    int h = imageSize / 2;
    LayerSpec pool = convLayer("pool1", batch, 64, h, h, 64, 3, 3, 2, 1, 0, false, {x});
    pool.kind = LayerKind::MaxPool;
    net.push_back(pool);
    x = last();
    h /= 2;
    int c = 64;
    const int widths[] = {64, 128, 256, 512};
    for (int stage = 0; stage < 4; ++stage) {
        const int k = widths[stage];
        for (int block = 0; block < 2; ++block) {
            const std::string id = "conv" + std::to_string(stage + 2) + "_" + std::to_string(block + 1);
            const int stride = stage > 0 && block == 0 ? 2 : 1;
            const int a = conv(id + "a", x, c, h, k, 3, stride, true);
            const int outH = (h + 2 - 3) / stride + 1;
            const int b = conv(id + "b", a, k, outH, k, 3, 1, false);
            int shortcut = x;
            if (stride != 1 || c != k) shortcut = conv(id + "d", x, c, h, k, 1, stride, false);
            LayerSpec add = convLayer("add" + std::to_string(stage + 2) + "_" + std::to_string(block + 1), batch, k,
                                      outH, outH, k, 1, 1, 1, 0, 1, true, {b, shortcut});
            add.kind = LayerKind::Add;
            net.push_back(add);
            x = last();
            h = outH;
            c = k;
        }
    }
    LayerSpec gpool = convLayer("gpool", batch, c, h, h, c, h, h, 1, 0, 0, false, {x});
    gpool.kind = LayerKind::MaxPool;
    net.push_back(gpool);
    net.push_back(denseLayer("fc", batch, c, 1000, requantShift(c), false, {last()}));
    return net;
}

} // namespace nestor::vta
