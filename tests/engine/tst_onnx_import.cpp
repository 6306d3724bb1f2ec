// ONNX import (engine/io/OnnxImport.h): models built in memory by an independent encoder
// (tests/support/OnnxEncoder.h); expected layer dimensions are written by hand from the
// networks' papers and checked against the bundled examples where they exist.
#include "io/OnnxImport.h"
#include "io/ProjectYaml.h"
#include "support/OnnxEncoder.h"

#include <QTemporaryDir>
#include <QtTest>

#include <climits>
#include <fstream>

using namespace nestor;
using namespace onnxenc;

namespace {

OnnxImportResult importBytes(const Bytes& b, const OnnxImportOptions& o = {})
{
    const OnnxModel m = parseOnnxModel(reinterpret_cast<const std::uint8_t*>(b.data()), b.size(), "mem.onnx");
    return importOnnxModel(m, o);
}

// The error text of importing `b`, or "" when it imported.
std::string importError(const Bytes& b)
{
    try {
        importBytes(b);
    } catch (const NestorError& e) {
        return e.what();
    }
    return {};
}

const ProjectWorkload* find(const OnnxImportResult& r, const std::string& name)
{
    for (const auto& w : r.workloads)
        if (w.workload.name == name) return &w;
    return nullptr;
}

void checkConv(const OnnxImportResult& r, const std::string& name, const std::string& type, std::vector<std::int64_t> NMCPQRS,
               std::int64_t stride = 1, std::int64_t groups = 1)
{
    const ProjectWorkload* w = find(r, name);
    QVERIFY2(w, name.c_str());
    QCOMPARE(w->spec.type, type);
    const ConvParams& c = w->spec.conv;
    const std::vector<std::int64_t> got{c.N, type == "depthwise" ? 1 : c.M, c.C, c.P, c.Q, c.R, c.S};
    if (type == "depthwise") NMCPQRS[1] = 1;
    QCOMPARE(got, NMCPQRS);
    QCOMPARE(c.strideH, stride);
    QCOMPARE(c.strideW, stride);
    QCOMPARE(c.groups, groups);
}

Bytes conv(const std::string& name, const std::string& in, const std::string& w, const std::string& out, std::int64_t k,
           std::int64_t stride, std::int64_t pad, std::int64_t group = 1)
{
    return node("Conv", name, {in, w}, {out},
                {attrInts("kernel_shape", {k, k}), attrInts("strides", {stride, stride}), attrInts("pads", {pad, pad, pad, pad}),
                 attrInt("group", group)});
}

Bytes maxPool(const std::string& in, const std::string& out, std::int64_t k, std::int64_t s)
{
    return node("MaxPool", "", {in}, {out}, {attrInts("kernel_shape", {k, k}), attrInts("strides", {s, s})});
}

// AlexNet as torchvision exports it but with the paper's two groups (conv2/4/5): conv1 11x11
// stride 4 pad 2 on 3 x 224 x 224 gives (224 + 4 - 11) / 4 + 1 = 55.
Graph alexnet()
{
    Graph g;
    g.name = "alexnet";
    g.input("data", {1, 3, 224, 224});
    auto relu = [&](const std::string& x) { g.nodes.push_back(node("Relu", "", {x}, {x + "r"})); return x + "r"; };
    g.weight("w1", {96, 3, 11, 11});
    g.nodes.push_back(conv("conv1", "data", "w1", "c1", 11, 4, 2));
    g.nodes.push_back(maxPool(relu("c1"), "p1", 3, 2));  // 27
    g.weight("w2", {256, 48, 5, 5});
    g.nodes.push_back(conv("conv2", "p1", "w2", "c2", 5, 1, 2, 2));
    g.nodes.push_back(maxPool(relu("c2"), "p2", 3, 2));  // 13
    g.weight("w3", {384, 256, 3, 3});
    g.nodes.push_back(conv("conv3", "p2", "w3", "c3", 3, 1, 1));
    g.weight("w4", {384, 192, 3, 3});
    g.nodes.push_back(conv("conv4", relu("c3"), "w4", "c4", 3, 1, 1, 2));
    g.weight("w5", {256, 192, 3, 3});
    g.nodes.push_back(conv("conv5", relu("c4"), "w5", "c5", 3, 1, 1, 2));
    g.nodes.push_back(maxPool(relu("c5"), "p5", 3, 2));  // 6
    g.nodes.push_back(node("Flatten", "", {"p5"}, {"f"}, {attrInt("axis", 1)}));
    g.weight("w6", {4096, 9216});
    g.weight("b6", {4096});
    g.nodes.push_back(node("Gemm", "fc6", {"f", "w6", "b6"}, {"g6"}, {attrInt("transB", 1)}));
    g.nodes.push_back(node("Dropout", "", {relu("g6")}, {"d6"}));
    g.weight("w7", {4096, 4096});
    g.nodes.push_back(node("Gemm", "fc7", {"d6", "w7"}, {"g7"}, {attrInt("transB", 1)}));
    g.weight("w8", {4096, 1000});  // not transposed: B is K x N
    g.nodes.push_back(node("Gemm", "fc8", {relu("g7"), "w8"}, {"g8"}));
    g.nodes.push_back(node("Softmax", "", {"g8"}, {"prob"}));
    g.outputs.push_back(valueInfo("prob", dims({1, 1000})));
    return g;
}

} // namespace

class TestOnnxImport : public QObject {
    Q_OBJECT
private slots:
    void alexnetLayers();
    void alexnetMatchesExample();
    void resnetBottleneckMergesRepeats();
    void mobilenetDepthwiseAndSamePadding();
    void groupedAndChannelMultiplier();
    void matmulAndGemm();
    void quantizedOps();
    void poolingCeilModeAndSame();
    void reshapeZeroAndMinusOne();
    void symbolicBatch();
    void unknownOps();
    void shapeOpsOfExportedGraphs();
    void contentsUnlikeTheirDimsAreNotTrusted();
    void convTransposeWarns();
    void addToProjectRoundTrip();
    void fileImportAndNetworkName();
    void badInputClearErrors();
    void truncatedPrefixesAndMutationsNeverCrash();
};

void TestOnnxImport::alexnetLayers()
{
    const OnnxImportResult r = importBytes(alexnet().model());
    QCOMPARE(r.network.name, std::string("alexnet"));
    QCOMPARE(r.workloads.size(), std::size_t(8));
    // N M C P Q R S by hand (Krizhevsky et al. 2012, per-group M and C for the grouped layers).
    checkConv(r, "conv1", "conv", {1, 96, 3, 55, 55, 11, 11}, 4);
    checkConv(r, "conv2", "grouped", {1, 128, 48, 27, 27, 5, 5}, 1, 2);
    checkConv(r, "conv3", "conv", {1, 384, 256, 13, 13, 3, 3});
    checkConv(r, "conv4", "grouped", {1, 192, 192, 13, 13, 3, 3}, 1, 2);
    checkConv(r, "conv5", "grouped", {1, 128, 192, 13, 13, 3, 3}, 1, 2);
    for (auto [name, out, in] : {std::tuple{"fc6", 4096, 9216}, {"fc7", 4096, 4096}, {"fc8", 1000, 4096}}) {
        const ProjectWorkload* w = find(r, name);
        QVERIFY(w);
        QCOMPARE(w->spec.type, std::string("fc"));
        QCOMPARE(w->spec.fcBatch, std::int64_t(1));
        QCOMPARE(w->spec.fcOut, std::int64_t(out));
        QCOMPARE(w->spec.fcIn, std::int64_t(in));
    }
    // MACs by hand: 105415200 + 223948800 + 149520384 + 112140288 + 74760192 + 37748736 + 16777216 + 4096000.
    QCOMPARE(r.totalMacs, std::int64_t(724406816));
    QCOMPARE(r.layerCount, std::int64_t(8));
}

void TestOnnxImport::alexnetMatchesExample()
{
    const Project example = readProject(NESTOR_EXAMPLES_DIR "/alexnet.yaml");
    const OnnxImportResult r = importBytes(alexnet().model());
    for (const auto& w : r.workloads) {
        const ProjectWorkload* e = example.findWorkload(w.workload.name);
        QVERIFY2(e, w.workload.name.c_str());
        QVERIFY2(e->workload.sameShape(w.workload), w.workload.name.c_str());
    }
}

void TestOnnxImport::resnetBottleneckMergesRepeats()
{
    // ResNet-50 v1.5 stage 3: block a (stride 2 on the 3x3, projection with stride 2) and two
    // identical identity blocks b, c on 256 x 56 x 56 -> 512 x 28 x 28 (examples/resnet50.yaml res3a/res3b).
    Graph g;
    g.input("x", {1, 256, 56, 56});
    auto block = [&](const std::string& p, const std::string& in, std::int64_t cin, bool down) {
        g.weight(p + "w1", {128, cin, 1, 1});
        g.nodes.push_back(conv(p + "_1x1a", in, p + "w1", p + "a", 1, 1, 0));
        g.nodes.push_back(node("BatchNormalization", "", {p + "a", p + "s", p + "b", p + "m", p + "v"}, {p + "an"}));
        g.weight(p + "s", {128});
        g.weight(p + "b", {128});
        g.weight(p + "m", {128});
        g.weight(p + "v", {128});
        g.nodes.push_back(node("Relu", "", {p + "an"}, {p + "ar"}));
        g.weight(p + "w2", {128, 128, 3, 3});
        g.nodes.push_back(conv(p + "_3x3", p + "ar", p + "w2", p + "c", 3, down ? 2 : 1, 1));
        g.nodes.push_back(node("Relu", "", {p + "c"}, {p + "cr"}));
        g.weight(p + "w3", {512, 128, 1, 1});
        g.nodes.push_back(conv(p + "_1x1b", p + "cr", p + "w3", p + "d", 1, 1, 0));
        std::string skip = in;
        if (down) {
            g.weight(p + "wp", {512, cin, 1, 1});
            g.nodes.push_back(conv(p + "_proj", in, p + "wp", p + "proj", 1, 2, 0));
            skip = p + "proj";
        }
        g.nodes.push_back(node("Add", "", {p + "d", skip}, {p + "sum"}));
        g.nodes.push_back(node("Relu", "", {p + "sum"}, {p + "out"}));
        return p + "out";
    };
    std::string x = block("res3a", "x", 256, true);
    x = block("res3b", x, 512, false);
    x = block("res3c", x, 512, false);
    const OnnxImportResult r = importBytes(g.model());
    checkConv(r, "res3a_1x1a", "conv", {1, 128, 256, 56, 56, 1, 1});
    checkConv(r, "res3a_3x3", "conv", {1, 128, 128, 28, 28, 3, 3}, 2);
    checkConv(r, "res3a_1x1b", "conv", {1, 512, 128, 28, 28, 1, 1});
    checkConv(r, "res3a_proj", "conv", {1, 512, 256, 28, 28, 1, 1}, 2);
    checkConv(r, "res3b_1x1a", "conv", {1, 128, 512, 28, 28, 1, 1});
    checkConv(r, "res3b_3x3", "conv", {1, 128, 128, 28, 28, 3, 3});
    QCOMPARE(r.workloads.size(), std::size_t(6));  // res3b_1x1b equals res3a_1x1b; res3c equals res3b
    QVERIFY(!find(r, "res3b_1x1b") && !find(r, "res3c_1x1a"));
    using L = std::vector<std::pair<std::string, std::int64_t>>;
    const L expected{{"res3a_1x1a", 1}, {"res3a_3x3", 1}, {"res3a_1x1b", 1}, {"res3a_proj", 1}, {"res3b_1x1a", 1},
                     {"res3b_3x3", 1},  {"res3a_1x1b", 1}, {"res3b_1x1a", 1}, {"res3b_3x3", 1},  {"res3a_1x1b", 1}};
    QCOMPARE(r.network.layers, expected);
    QCOMPARE(r.layerCount, std::int64_t(10));
    const Project example = readProject(NESTOR_EXAMPLES_DIR "/resnet50.yaml");
    for (const char* n : {"res3a_1x1a", "res3a_3x3", "res3a_1x1b", "res3a_proj", "res3b_1x1a", "res3b_3x3"})
        QVERIFY2(example.findWorkload(n)->workload.sameShape(find(r, n)->workload), n);
}

void TestOnnxImport::mobilenetDepthwiseAndSamePadding()
{
    // MobileNet v1 block: 3x3 depthwise (group = channels) then 1x1 pointwise; then a stride-2
    // depthwise with SAME_UPPER padding: ceil(112 / 2) = 56.
    Graph g;
    g.input("x", {1, 32, 112, 112});
    g.weight("dw", {32, 1, 3, 3});
    g.nodes.push_back(conv("dw1", "x", "dw", "a", 3, 1, 1, 32));
    g.weight("pw", {64, 32, 1, 1});
    g.nodes.push_back(node("Clip", "", {"a"}, {"ar"}));
    g.nodes.push_back(conv("pw1", "ar", "pw", "b", 1, 1, 0));
    g.weight("dw2w", {64, 1, 3, 3});
    g.nodes.push_back(node("Conv", "dw2", {"b", "dw2w"}, {"c"},
                           {attrInts("kernel_shape", {3, 3}), attrInts("strides", {2, 2}), attrString("auto_pad", "SAME_UPPER"),
                            attrInt("group", 64)}));
    const OnnxImportResult r = importBytes(g.model());
    checkConv(r, "dw1", "depthwise", {1, 0, 32, 112, 112, 3, 3});
    checkConv(r, "pw1", "conv", {1, 64, 32, 112, 112, 1, 1});
    checkConv(r, "dw2", "depthwise", {1, 0, 64, 56, 56, 3, 3}, 2);
}

void TestOnnxImport::groupedAndChannelMultiplier()
{
    Graph g;
    g.input("x", {1, 64, 28, 28});
    g.weight("w", {128, 16, 3, 3});  // 4 groups of 16 -> 32 channels
    g.nodes.push_back(conv("g4", "x", "w", "a", 3, 1, 1, 4));
    g.weight("m", {256, 1, 3, 3});  // 128 groups of 1 input channel, 2 outputs each: not depthwise
    g.nodes.push_back(conv("mult2", "a", "m", "b", 3, 1, 1, 128));
    // Dilation 2, no padding: 28 - 2 * (3 - 1) = 24.
    g.weight("d", {8, 256, 3, 3});
    g.nodes.push_back(node("Conv", "dil", {"b", "d"}, {"c"}, {attrInts("dilations", {2, 2})}));
    const OnnxImportResult r = importBytes(g.model());
    checkConv(r, "g4", "grouped", {1, 32, 16, 28, 28, 3, 3}, 1, 4);
    checkConv(r, "mult2", "grouped", {1, 2, 1, 28, 28, 3, 3}, 1, 128);
    checkConv(r, "dil", "conv", {1, 8, 256, 24, 24, 3, 3});
    QCOMPARE(find(r, "dil")->spec.conv.dilationH, std::int64_t(2));
}

void TestOnnxImport::matmulAndGemm()
{
    // BERT-style: hidden [1, 128, 768] x W [768, 3072] (weights) -> fc over 128 rows; attention
    // scores Q [1, 12, 128, 64] x K^T [1, 12, 64, 128] -> a 128 x 128 x 64 GEMM 12 times; a Gemm
    // of two activations with transB.
    Graph g;
    g.input("h", {1, 128, 768});
    g.weight("w", {768, 3072});
    g.nodes.push_back(node("MatMul", "ffn", {"h", "w"}, {"f"}));
    g.input("q", {1, 12, 128, 64});
    g.input("k", {1, 12, 64, 128});
    g.nodes.push_back(node("MatMul", "scores", {"q", "k"}, {"s"}));
    g.input("a", {64, 256});
    g.input("b", {512, 256});
    g.nodes.push_back(node("Gemm", "", {"a", "b"}, {"ab"}, {attrInt("transB", 1)}));
    const OnnxImportResult r = importBytes(g.model());
    const ProjectWorkload* ffn = find(r, "ffn");
    QVERIFY(ffn);
    QCOMPARE(ffn->spec.type, std::string("fc"));
    QCOMPARE(ffn->spec.fcBatch, std::int64_t(128));
    QCOMPARE(ffn->spec.fcOut, std::int64_t(3072));
    QCOMPARE(ffn->spec.fcIn, std::int64_t(768));
    const ProjectWorkload* s = find(r, "scores");
    QVERIFY(s);
    QCOMPARE(s->spec.type, std::string("gemm"));
    QCOMPARE((std::vector<std::int64_t>{s->spec.gemmM, s->spec.gemmN, s->spec.gemmK}), (std::vector<std::int64_t>{128, 128, 64}));
    const ProjectWorkload* ab = find(r, "gemm_2");  // unnamed: op type + node index
    QVERIFY(ab);
    QCOMPARE((std::vector<std::int64_t>{ab->spec.gemmM, ab->spec.gemmN, ab->spec.gemmK}), (std::vector<std::int64_t>{64, 512, 256}));
    using L = std::vector<std::pair<std::string, std::int64_t>>;
    QCOMPARE(r.network.layers, (L{{"ffn", 1}, {"scores", 12}, {"gemm_2", 1}}));
    QCOMPARE(r.totalMacs, std::int64_t(128) * 3072 * 768 + 12LL * 128 * 128 * 64 + 64LL * 512 * 256);
}

void TestOnnxImport::quantizedOps()
{
    // An int8 graph as onnxruntime's quantizer writes it: QLinearConv's weights are its fourth
    // input (after x, x_scale, x_zero_point), ConvInteger's and MatMulInteger's the second.
    Graph g;
    g.input("x", {1, 3, 32, 32});
    for (const char* s : {"xs", "xz", "ws", "wz", "ys", "yz"}) g.weight(s, {});
    g.nodes.push_back(node("QuantizeLinear", "", {"x", "xs", "xz"}, {"xq"}));
    g.weight("w1", {16, 3, 3, 3});
    // 32 - 3 + 1 = 30 outputs per axis without padding, 15 with stride 2.
    g.nodes.push_back(node("QLinearConv", "qconv", {"xq", "xs", "xz", "w1", "ws", "wz", "ys", "yz"}, {"y1"},
                           {attrInts("strides", {2, 2})}));
    g.weight("w2", {32, 16, 1, 1});
    g.nodes.push_back(node("ConvInteger", "iconv", {"y1", "w2", "yz", "wz"}, {"y2"}));
    g.nodes.push_back(node("DynamicQuantizeLinear", "", {"y2"}, {"y2q", "y2s", "y2z"}));
    g.nodes.push_back(node("Flatten", "", {"y2q"}, {"f"}));  // [1, 32 * 15 * 15 = 7200]
    g.weight("w3", {7200, 10});
    g.nodes.push_back(node("MatMulInteger", "imm", {"f", "w3", "y2z", "wz"}, {"z"}));
    g.weight("w4", {10, 10});
    g.nodes.push_back(node("QLinearMatMul", "qmm", {"z", "ys", "yz", "w4", "ws", "wz", "ys", "yz"}, {"out"}));
    const OnnxImportResult r = importBytes(g.model());
    QCOMPARE(r.workloads.size(), std::size_t(4));
    checkConv(r, "qconv", "conv", {1, 16, 3, 15, 15, 3, 3}, 2);
    checkConv(r, "iconv", "conv", {1, 32, 16, 15, 15, 1, 1});
    for (auto [name, out, in] : {std::tuple{"imm", 10, 7200}, {"qmm", 10, 10}}) {
        const ProjectWorkload* w = find(r, name);
        QVERIFY(w);
        QCOMPARE(w->spec.type, std::string("fc"));
        QCOMPARE(w->spec.fcOut, std::int64_t(out));
        QCOMPARE(w->spec.fcIn, std::int64_t(in));
    }
    QCOMPARE(r.totalMacs, std::int64_t(16 * 3 * 15 * 15 * 9 + 32 * 16 * 15 * 15 + 7200 * 10 + 10 * 10));
}

void TestOnnxImport::poolingCeilModeAndSame()
{
    Graph g;
    g.input("x", {1, 3, 112, 112});
    // floor((112 - 3) / 2) + 1 = 55; with ceil_mode ceil(109 / 2) + 1 = 56.
    g.nodes.push_back(node("MaxPool", "", {"x"}, {"p"}, {attrInts("kernel_shape", {3, 3}), attrInts("strides", {2, 2}), attrInt("ceil_mode", 1)}));
    g.weight("w1", {4, 3, 1, 1});
    g.nodes.push_back(conv("after_ceil", "p", "w1", "a", 1, 1, 0));
    // SAME_UPPER, stride 2: ceil(56 / 2) = 28.
    g.nodes.push_back(node("AveragePool", "", {"a"}, {"q"}, {attrInts("kernel_shape", {3, 3}), attrInts("strides", {2, 2}), attrString("auto_pad", "SAME_UPPER")}));
    g.weight("w2", {4, 4, 1, 1});
    g.nodes.push_back(conv("after_same", "q", "w2", "b", 1, 1, 0));
    // 5 wide, kernel 2, stride 2, pads 1: ceil((7 - 2) / 2) + 1 = 4, but the 4th window would
    // start in the end padding (at 6 >= 5 + 1) and is dropped: 3.
    g.input("y", {1, 4, 5, 5});
    g.nodes.push_back(node("MaxPool", "", {"y"}, {"r"}, {attrInts("kernel_shape", {2, 2}), attrInts("strides", {2, 2}), attrInts("pads", {1, 1, 1, 1}), attrInt("ceil_mode", 1)}));
    g.nodes.push_back(conv("after_drop", "r", "w2", "c", 1, 1, 0));
    g.nodes.push_back(node("GlobalAveragePool", "", {"c"}, {"gap"}));
    g.nodes.push_back(conv("after_gap", "gap", "w2", "d", 1, 1, 0));
    const OnnxImportResult r = importBytes(g.model());
    checkConv(r, "after_ceil", "conv", {1, 4, 3, 56, 56, 1, 1});
    checkConv(r, "after_same", "conv", {1, 4, 4, 28, 28, 1, 1});
    checkConv(r, "after_drop", "conv", {1, 4, 4, 3, 3, 1, 1});
    checkConv(r, "after_gap", "conv", {1, 4, 4, 1, 1, 1, 1});
}

void TestOnnxImport::reshapeZeroAndMinusOne()
{
    Graph g;
    g.input("x", {2, 8, 4, 4});
    g.initializers.push_back(tensor("shape", {2}, 7, {0, -1}));  // INT64 [0, -1] -> [2, 128]
    g.nodes.push_back(node("Reshape", "", {"x", "shape"}, {"flat"}));
    g.weight("w", {128, 10});
    g.nodes.push_back(node("Gemm", "head", {"flat", "w"}, {"y"}));
    // The exporter pattern: Shape -> Gather(0) -> Unsqueeze -> Concat with [-1] -> Reshape.
    g.nodes.push_back(node("Shape", "", {"x"}, {"sh"}));
    g.nodes.push_back(node("Constant", "", {}, {"zero"}, {attrTensor("value", tensor("", {}, 7, {0}))}));
    g.nodes.push_back(node("Gather", "", {"sh", "zero"}, {"n"}, {attrInt("axis", 0)}));
    g.nodes.push_back(node("Unsqueeze", "", {"n"}, {"n1"}, {attrInts("axes", {0})}));
    g.nodes.push_back(node("Constant", "", {}, {"minus1"}, {attrTensor("value", tensor("", {1}, 7, {-1}))}));
    g.nodes.push_back(node("Concat", "", {"n1", "minus1"}, {"target"}, {attrInt("axis", 0)}));
    g.nodes.push_back(node("Reshape", "", {"x", "target"}, {"flat2"}));
    g.weight("w2", {20, 128});
    g.nodes.push_back(node("Gemm", "head2", {"flat2", "w2"}, {"y2"}, {attrInt("transB", 1)}));
    const OnnxImportResult r = importBytes(g.model());
    QCOMPARE(find(r, "head")->spec.fcBatch, std::int64_t(2));
    QCOMPARE(find(r, "head")->spec.fcIn, std::int64_t(128));
    QCOMPARE(find(r, "head")->spec.fcOut, std::int64_t(10));
    QCOMPARE(find(r, "head2")->spec.fcBatch, std::int64_t(2));
    QCOMPARE(find(r, "head2")->spec.fcIn, std::int64_t(128));
    QCOMPARE(find(r, "head2")->spec.fcOut, std::int64_t(20));
}

void TestOnnxImport::symbolicBatch()
{
    Graph g;
    g.inputs.push_back(valueInfo("x", {{0, "batch"}, {3, {}}, {8, {}}, {8, {}}}));
    g.weight("w", {4, 3, 3, 3});
    g.nodes.push_back(conv("c", "x", "w", "y", 3, 1, 1));
    OnnxImportOptions o;
    o.batch = 4;
    const OnnxImportResult r = importBytes(g.model(), o);
    checkConv(r, "c", "conv", {4, 4, 3, 8, 8, 3, 3});
    QCOMPARE(r.warnings.size(), std::size_t(1));
    QVERIFY(r.warnings[0].find("batch size 4") != std::string::npos);
    QVERIFY(r.warnings[0].find("'batch'") != std::string::npos);
}

void TestOnnxImport::unknownOps()
{
    Graph g;
    g.input("x", {1, 3, 8, 8});
    g.weight("w", {4, 3, 1, 1});
    g.nodes.push_back(conv("c", "x", "w", "y", 1, 1, 0));
    g.nodes.push_back(node("NonMaxSuppression", "nms", {"y"}, {"boxes"}));  // off the MAC path
    OnnxImportResult r = importBytes(g.model());
    QCOMPARE(r.workloads.size(), std::size_t(1));
    QCOMPARE(r.warnings.size(), std::size_t(1));
    QVERIFY(r.warnings[0].find("NonMaxSuppression") != std::string::npos);
    // On the MAC path: the error names the layer and the node that blocks it.
    g.nodes.push_back(node("RoiAlign", "up", {"y"}, {"z"}));
    g.weight("w2", {4, 4, 1, 1});
    g.nodes.push_back(conv("c2", "z", "w2", "out", 1, 1, 0));
    const std::string e = importError(g.model());
    QVERIFY2(e.find("graph.node[3] 'c2' (Conv)") != std::string::npos, e.c_str());
    QVERIFY2(e.find("graph.node[2] 'up' (RoiAlign)") != std::string::npos, e.c_str());
    QVERIFY2(e.find("not supported") != std::string::npos, e.c_str());
    // The same graph with the blocked shape declared in value_info: that shape is used, with a warning.
    g.valueInfos.push_back(valueInfo("z", dims({1, 4, 16, 16})));
    r = importBytes(g.model());
    checkConv(r, "c2", "conv", {1, 4, 4, 16, 16, 1, 1});
    QVERIFY(r.warnings.size() == 2 && r.warnings[0].find("declared in the file") != std::string::npos);
}

// The ops exporters put between layers (PyTorch's Shape -> Slice/Gather -> arithmetic ->
// Concat -> Reshape, Split, Resize and Upsample, Tile, Expand, DepthToSpace), each with the
// output shape the ONNX operator specification gives, worked out by hand in the comments.
void TestOnnxImport::shapeOpsOfExportedGraphs()
{
    Graph g;
    g.input("x", {1, 8, 16, 16});
    // Split on channels into 2 + 6 (split as an input, opset 13); a 3x3 conv on the 6: 14x14.
    g.initializers.push_back(tensor("parts", {2}, 7, {2, 6}));
    g.nodes.push_back(node("Split", "", {"x", "parts"}, {"xa", "xb"}, {attrInt("axis", 1)}));
    g.weight("wa", {4, 6, 3, 3});
    g.nodes.push_back(conv("ca", "xb", "wa", "ya", 3, 1, 0));  // [1, 4, 14, 14]
    // Shape [1, 4, 14, 14] -> Slice [0, 2) = [1, 4] -> Concat with [-1] -> Reshape to [1, 4, 196].
    g.nodes.push_back(node("Shape", "", {"ya"}, {"s"}));
    g.initializers.push_back(tensor("s0", {1}, 7, {0}));
    g.initializers.push_back(tensor("s2", {1}, 7, {2}));
    g.nodes.push_back(node("Slice", "", {"s", "s0", "s2"}, {"s01"}));
    g.initializers.push_back(tensor("minus1", {1}, 7, {-1}));
    g.nodes.push_back(node("Concat", "", {"s01", "minus1"}, {"target"}, {attrInt("axis", 0)}));
    g.nodes.push_back(node("Reshape", "", {"ya", "target"}, {"flat"}));
    g.weight("wmT", {10, 196});  // stored transposed, as PyTorch's Linear stores it
    g.nodes.push_back(node("Transpose", "", {"wmT"}, {"wm"}));
    g.nodes.push_back(node("MatMul", "mm", {"flat", "wm"}, {"ym"}));  // still weights: fc, 4 rows, 196 -> 10
    // Resize by scales [1, 1, 2, 2] (raw_data): 28x28; Upsample by the attribute [1, 1, 0.5, 0.5]:
    // 14x14; Resize to sizes [1, 2, 7, 7].
    g.initializers.push_back(floatTensor("up2", {4}, {1, 1, 2, 2}, true));
    g.nodes.push_back(node("Resize", "", {"ya", "", "up2"}, {"r1"}, {attrString("mode", "nearest")}));
    g.weight("wr", {2, 4, 1, 1});
    g.nodes.push_back(conv("cr", "r1", "wr", "yr", 1, 1, 0));
    g.nodes.push_back(node("Upsample", "", {"yr"}, {"r2"}, {attrFloats("scales", {1, 1, 0.5F, 0.5F})}));
    g.weight("wu", {2, 2, 1, 1});
    g.nodes.push_back(conv("cu", "r2", "wu", "yu", 1, 1, 0));
    g.initializers.push_back(tensor("sizes", {4}, 7, {1, 2, 7, 7}));
    g.nodes.push_back(node("Resize", "", {"yu", "", "", "sizes"}, {"r3"}));
    g.weight("ws", {3, 2, 1, 1});
    g.nodes.push_back(conv("cs", "r3", "ws", "ys", 1, 1, 0));
    // Tile [1, 1, 2, 1]: [1, 8, 32, 16]. DepthToSpace 2: [1, 2, 32, 32].
    g.initializers.push_back(tensor("reps", {4}, 7, {1, 1, 2, 1}));
    g.nodes.push_back(node("Tile", "", {"x", "reps"}, {"tiled"}));
    g.weight("wt", {5, 8, 1, 1});
    g.nodes.push_back(conv("ct", "tiled", "wt", "yt", 1, 1, 0));
    g.nodes.push_back(node("DepthToSpace", "", {"x"}, {"d2s"}, {attrInt("blocksize", 2)}));
    g.weight("wd", {6, 2, 1, 1});
    g.nodes.push_back(conv("cd", "d2s", "wd", "yd", 1, 1, 0));
    // Shape(x)[2] / 2 = 8 and Shape(x)[3] * 2 = 32: Reshape x to [1, 8, 8, 32].
    g.nodes.push_back(node("Shape", "", {"x"}, {"sx"}));
    g.initializers.push_back(tensor("i2", {1}, 7, {2}));
    g.initializers.push_back(tensor("i3", {1}, 7, {3}));
    g.initializers.push_back(tensor("two", {}, 7, {2}));
    g.nodes.push_back(node("Gather", "", {"sx", "i2"}, {"h"}));
    g.nodes.push_back(node("Gather", "", {"sx", "i3"}, {"w"}));
    g.nodes.push_back(node("Div", "", {"h", "two"}, {"h2"}));
    g.nodes.push_back(node("Mul", "", {"w", "two"}, {"w2"}));
    g.initializers.push_back(tensor("head", {2}, 7, {1, 8}));
    g.nodes.push_back(node("Concat", "", {"head", "h2", "w2"}, {"hw"}, {attrInt("axis", 0)}));
    g.nodes.push_back(node("Reshape", "", {"x", "hw"}, {"xr"}));
    g.weight("wh", {7, 8, 1, 1});
    g.nodes.push_back(conv("ch", "xr", "wh", "yh", 1, 1, 0));
    // A real Constant scales x before a layer: the product keeps x's shape.
    g.nodes.push_back(node("Constant", "", {}, {"half"}, {[] {
                               Bytes a;  // AttributeProto{name = 1, f = 2 (32-bit), type = 20 (FLOAT = 1)}
                               bytesField(a, 1, "value_float");
                               tag(a, 2, 5);
                               fixed32(a, 0.5F);
                               intField(a, 20, 1);
                               return a;
                           }()}));
    g.nodes.push_back(node("Mul", "", {"x", "half"}, {"xh"}));
    g.weight("wx", {2, 8, 1, 1});
    g.nodes.push_back(conv("cx", "xh", "wx", "yx", 1, 1, 0));
    // Expand [1, 1, 4, 4] to [2, 3, 4, 4] (broadcast).
    g.input("e", {1, 1, 4, 4});
    g.initializers.push_back(tensor("eshape", {4}, 7, {2, 3, 1, 4}));
    g.nodes.push_back(node("Expand", "", {"e", "eshape"}, {"ex"}));
    g.weight("we", {1, 3, 1, 1});
    g.nodes.push_back(conv("ce", "ex", "we", "ye", 1, 1, 0));

    // Slice with a negative step and an end past the front: s[3], s[1] = [14, 4]; with [-1]:
    // Reshape [1, 4, 14, 14] to [14, 4, 14]; MatMul by [14, 3]: an fc of 56 rows.
    g.initializers.push_back(tensor("last", {1}, 7, {-1}));
    g.initializers.push_back(tensor("front", {1}, 7, {INT64_MIN}));
    g.initializers.push_back(tensor("axis0", {1}, 7, {0}));
    g.initializers.push_back(tensor("back2", {1}, 7, {-2}));
    g.nodes.push_back(node("Slice", "", {"s", "last", "front", "axis0", "back2"}, {"rev"}));
    g.nodes.push_back(node("Concat", "", {"rev", "minus1"}, {"target2"}, {attrInt("axis", 0)}));
    g.nodes.push_back(node("Reshape", "", {"ya", "target2"}, {"folded"}));
    g.weight("wm2", {14, 3});
    g.nodes.push_back(node("MatMul", "mm2", {"folded", "wm2"}, {"ym2"}));

    // Position ids as GPT-2's export makes them: Range(0, Shape(x)[3] = 16, 1) -> Gather of an
    // embedding table [1024, 32] -> [16, 32]; Range(16, 0, -3) has ceil(-16 / -3) = 6 elements.
    g.initializers.push_back(tensor("zero", {}, 7, {0}));
    g.initializers.push_back(tensor("one", {}, 7, {1}));
    g.nodes.push_back(node("Squeeze", "", {"w"}, {"len"}));
    g.nodes.push_back(node("Range", "", {"zero", "len", "one"}, {"pos"}));
    g.weight("wpe", {1024, 32});
    g.nodes.push_back(node("Gather", "", {"wpe", "pos"}, {"pe"}));
    g.weight("wp", {32, 8});
    g.nodes.push_back(node("MatMul", "mp", {"pe", "wp"}, {"yp"}));  // fc: 16 rows, 32 -> 8
    g.initializers.push_back(tensor("minus3", {}, 7, {-3}));
    g.nodes.push_back(node("Range", "", {"len", "zero", "minus3"}, {"down"}));
    g.nodes.push_back(node("Gather", "", {"wpe", "down"}, {"pd"}));
    g.nodes.push_back(node("MatMul", "md", {"pd", "wp"}, {"ydown"}));  // fc: 6 rows

    const OnnxImportResult r = importBytes(g.model());
    for (const auto& w : r.warnings) qWarning("%s", w.c_str());
    checkConv(r, "ca", "conv", {1, 4, 6, 14, 14, 3, 3});
    for (auto [name, rows] : {std::pair{"mp", 16}, {"md", 6}}) {
        const ProjectWorkload* m = find(r, name);
        QVERIFY2(m, name);
        QCOMPARE((std::vector<std::int64_t>{m->spec.fcBatch, m->spec.fcOut, m->spec.fcIn}), (std::vector<std::int64_t>{rows, 8, 32}));
    }
    const ProjectWorkload* mm2 = find(r, "mm2");
    QVERIFY(mm2);
    QCOMPARE((std::vector<std::int64_t>{mm2->spec.fcBatch, mm2->spec.fcOut, mm2->spec.fcIn}), (std::vector<std::int64_t>{56, 3, 14}));
    const ProjectWorkload* mm = find(r, "mm");
    QVERIFY(mm);
    QCOMPARE(mm->spec.type, std::string("fc"));
    QCOMPARE((std::vector<std::int64_t>{mm->spec.fcBatch, mm->spec.fcOut, mm->spec.fcIn}), (std::vector<std::int64_t>{4, 10, 196}));
    checkConv(r, "cr", "conv", {1, 2, 4, 28, 28, 1, 1});
    checkConv(r, "cu", "conv", {1, 2, 2, 14, 14, 1, 1});
    checkConv(r, "cs", "conv", {1, 3, 2, 7, 7, 1, 1});
    checkConv(r, "ct", "conv", {1, 5, 8, 32, 16, 1, 1});
    checkConv(r, "cd", "conv", {1, 6, 2, 32, 32, 1, 1});
    checkConv(r, "ch", "conv", {1, 7, 8, 8, 32, 1, 1});
    checkConv(r, "ce", "conv", {2, 1, 3, 4, 4, 1, 1});
    checkConv(r, "cx", "conv", {1, 2, 8, 16, 16, 1, 1});
    QVERIFY(r.warnings.empty());  // every node's shape was inferred
}

// A tensor whose dims say 5 values but which holds 3 (a malformed file): its contents are not
// used (no rule reads past them), its shape is; the Reshape it would drive cannot be inferred.
void TestOnnxImport::contentsUnlikeTheirDimsAreNotTrusted()
{
    Graph g;
    g.input("x", {1, 3, 8, 8});
    g.initializers.push_back(tensor("short", {5}, 7, {1, 3, 64}));
    g.initializers.push_back(tensor("s0", {1}, 7, {0}));
    g.initializers.push_back(tensor("s4", {1}, 7, {4}));
    g.nodes.push_back(node("Add", "", {"short", "short"}, {"twice"}));
    g.nodes.push_back(node("Slice", "", {"short", "s0", "s4"}, {"head"}));
    g.nodes.push_back(node("Reshape", "", {"x", "head"}, {"xr"}));
    g.weight("w", {4, 3, 1, 1});
    g.nodes.push_back(conv("c", "x", "w", "y", 1, 1, 0));
    const OnnxImportResult r = importBytes(g.model());
    checkConv(r, "c", "conv", {1, 4, 3, 8, 8, 1, 1});
    QCOMPARE(r.warnings.size(), std::size_t(1));  // the Reshape, skipped: its target is not a constant
    QVERIFY2(r.warnings[0].find("Reshape") != std::string::npos, r.warnings[0].c_str());
}

void TestOnnxImport::convTransposeWarns()
{
    Graph g;
    g.input("x", {1, 8, 7, 7});
    g.weight("w", {8, 4, 4, 4});
    // stride 2, pads 1: 2 * (7 - 1) + 4 - 2 = 14.
    g.nodes.push_back(node("ConvTranspose", "up", {"x", "w"}, {"u"}, {attrInts("strides", {2, 2}), attrInts("pads", {1, 1, 1, 1})}));
    g.weight("w2", {2, 4, 1, 1});
    g.nodes.push_back(conv("c", "u", "w2", "y", 1, 1, 0));
    const OnnxImportResult r = importBytes(g.model());
    checkConv(r, "c", "conv", {1, 2, 4, 14, 14, 1, 1});
    QCOMPARE(r.warnings.size(), std::size_t(1));
    QVERIFY(r.warnings[0].find("ConvTranspose") != std::string::npos);
}

void TestOnnxImport::addToProjectRoundTrip()
{
    Project p = readProject(NESTOR_EXAMPLES_DIR "/alexnet.yaml");
    const std::size_t before = p.workloads.size();
    OnnxImportOptions o;
    o.networkName = "alexnet_onnx";
    const OnnxImportResult r = importBytes(alexnet().model(), o);
    addOnnxImportToProject(p, r);
    QCOMPARE(p.workloads.size(), before + 8);
    const ProjectNetwork* n = p.findNetwork("alexnet_onnx");
    QVERIFY(n);
    QCOMPARE(n->layers.front().first, std::string("conv1_2"));  // conv1 was taken
    const Project back = parseProject(writeProject(p), "roundtrip.yaml");
    QVERIFY(back.findNetwork("alexnet_onnx"));
    QVERIFY(back.findWorkload("fc8_2")->workload.sameShape(find(r, "fc8")->workload));
    // The same network name again is refused.
    QVERIFY_THROWS_EXCEPTION(NestorError, addOnnxImportToProject(p, r));
}

void TestOnnxImport::fileImportAndNetworkName()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath("my net.onnx").toStdString();
    {
        std::ofstream f(path, std::ios::binary);
        const Bytes b = alexnet().model();
        f.write(b.data(), static_cast<std::streamsize>(b.size()));
    }
    const OnnxImportResult r = importOnnx(path, {});
    QCOMPARE(r.network.name, std::string("my_net"));
    QCOMPARE(r.workloads.size(), std::size_t(8));
    try {
        importOnnx(dir.path().toStdString(), {});
        QFAIL("a directory imported");
    } catch (const NestorError& e) {
        QVERIFY(std::string(e.what()).find("directory") != std::string::npos);
    }
    QVERIFY_THROWS_EXCEPTION(NestorError, importOnnx(dir.filePath("missing.onnx").toStdString(), {}));
}

void TestOnnxImport::badInputClearErrors()
{
    auto expect = [](const Bytes& b, const std::string& part) {
        const std::string e = importError(b);
        QVERIFY2(!e.empty(), part.c_str());
        QVERIFY2(e.find(part) != std::string::npos, (e + " -- expected: " + part).c_str());
    };
    // Not an ONNX file at all.
    expect("hello, this is a text file\n", "mem.onnx");
    expect(Bytes(), "no graph");
    // A varint that never ends, and one of 11 bytes.
    expect(Bytes("\x08\xff\xff", 3), "truncated varint");
    expect(Bytes(11, '\xff'), "longer than");
    // A graph whose length runs past the end.
    {
        Bytes b;
        tag(b, 7, 2);
        varint(b, 1000);
        b += "abc";
        expect(b, "runs past the end");
    }
    // Deprecated group wire types.
    expect(Bytes("\x0b", 1), "wire type 3");
    // Absurd dimensions of a graph input and of an initializer.
    for (std::int64_t d : {std::int64_t(-5), std::int64_t(1) << 32}) {
        Graph g;
        g.input("x", {1, 3, d, 8});
        g.weight("w", {4, 3, 1, 1});
        g.nodes.push_back(conv("c", "x", "w", "y", 1, 1, 0));
        expect(g.model(), "out of range");
    }
    {
        Graph g;
        g.input("x", {1, 0, 8, 8});
        g.weight("w", {4, 0, 1, 1});
        g.nodes.push_back(conv("c", "x", "w", "y", 1, 1, 0));
        expect(g.model(), "graph.input 'x': dimension 0 is out of range");
    }
    {
        Graph g;
        g.input("x", {1, 3, 8, 8});
        g.weight("w", {4, -3, 1, 1});
        g.nodes.push_back(conv("c", "x", "w", "y", 1, 1, 0));
        expect(g.model(), "initializer 'w'");
    }
    // A cycle, and an input nobody produces.
    {
        Graph g;
        g.input("x", {1, 3, 8, 8});
        g.nodes.push_back(node("Add", "a", {"x", "b_out"}, {"a_out"}));
        g.nodes.push_back(node("Relu", "b", {"a_out"}, {"b_out"}));
        expect(g.model(), "cycle");
    }
    {
        Graph g;
        g.input("x", {1, 3, 8, 8});
        g.nodes.push_back(conv("c", "x", "nowhere", "y", 1, 1, 0));
        expect(g.model(), "input 'nowhere' is produced by no node");
    }
    // Weights that do not match the input channels.
    {
        Graph g;
        g.input("x", {1, 3, 8, 8});
        g.weight("w", {4, 5, 1, 1});
        g.nodes.push_back(conv("c", "x", "w", "y", 1, 1, 0));
        expect(g.model(), "group 1 does not fit input channels 3");
    }
    // A window larger than the padded input.
    {
        Graph g;
        g.input("x", {1, 3, 4, 4});
        g.weight("w", {4, 3, 7, 7});
        g.nodes.push_back(conv("c", "x", "w", "y", 7, 1, 1));
        expect(g.model(), "does not fit the padded input");
    }
    // Absurd attributes: pads near 2^63, an Unsqueeze naming one axis twice on the MAC path.
    {
        Graph g;
        g.input("x", {1, 3, 8, 8});
        g.weight("w", {4, 3, 1, 1});
        g.nodes.push_back(node("Conv", "c", {"x", "w"}, {"y"}, {attrInts("pads", {INT64_MAX - 1, 0, INT64_MAX - 1, 0})}));
        expect(g.model(), "out of range");
    }
    {
        Graph g;
        g.input("x", {3, 8});
        g.nodes.push_back(node("Unsqueeze", "u", {"x"}, {"y"}, {attrInts("axes", {0, 0})}));
        g.weight("w", {8, 2});
        g.nodes.push_back(node("MatMul", "m", {"y", "w"}, {"z"}));
        expect(g.model(), "repeat an axis");
    }
    // No layer at all.
    {
        Graph g;
        g.input("x", {1, 3, 4, 4});
        g.nodes.push_back(node("Relu", "", {"x"}, {"y"}));
        expect(g.model(), "no Conv, Gemm or MatMul");
    }
}

void TestOnnxImport::truncatedPrefixesAndMutationsNeverCrash()
{
    const Bytes full = alexnet().model();
    // Every proper prefix cuts the graph message (field 7) short, or leaves no graph.
    for (std::size_t n = 0; n < full.size(); ++n) {
        const std::string e = importError(full.substr(0, n));
        QVERIFY2(!e.empty(), std::to_string(n).c_str());
    }
    // Deterministic byte mutations: each either imports or gives a NestorError, never anything else.
    std::uint64_t state = 12345;
    auto rnd = [&]() {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<std::size_t>(state >> 33);
    };
    int errors = 0;
    for (int k = 0; k < 3000; ++k) {
        Bytes b = full;
        const int edits = 1 + static_cast<int>(rnd() % 3);
        for (int e = 0; e < edits; ++e) b[rnd() % b.size()] = static_cast<char>(rnd() & 0xff);
        try {
            importBytes(b);
        } catch (const NestorError&) {
            ++errors;
        }
    }
    QVERIFY(errors > 0);
}

QTEST_GUILESS_MAIN(TestOnnxImport)
#include "tst_onnx_import.moc"
