// Energy models from papers: the printed table values of Interstellar (ASPLOS'20, Table 3)
// and the formulas and constants of Thistle (CGO'22, Table III, Eq. 4 and 5), checked on
// numbers computed by hand (the computation is written next to each expected value).
#include "arch/EnergyModels.h"
#include "common/Error.h"

#include <QtTest/QtTest>

#include <cmath>

using namespace nestor;

namespace {

constexpr double KB = 1024.0;

bool close(double a, double b, double rel = 1e-12)
{
    return std::fabs(a - b) <= rel * std::max({1.0, std::fabs(a), std::fabs(b)});
}

StorageLevel level(const std::string& name, const std::string& tech, std::optional<std::int64_t> size, int block,
                   std::int64_t instances = 1, std::int64_t meshX = 1)
{
    StorageLevel l;
    l.name = name;
    l.technology = tech;
    l.size_words = size;
    l.word_bits = 16;
    l.block_size = block;
    l.instances = instances;
    l.meshX = meshX;
    l.energy = {1.0, 2.0, 3.0, 4.0};  // must all be overwritten
    l.area_um2 = 7.0;
    return l;
}

// The Thistle paper's Eyeriss baseline: DRAM, 128 KB SRAM (64 Ki 16-bit words), 168 PEs with
// 512 registers each, 168 MACs.
Architecture eyerissBaseline()
{
    Architecture a;
    a.name = "baseline";
    a.levels.push_back(level("DRAM", "DRAM", std::nullopt, 4));
    a.levels.push_back(level("GLB", "SRAM", 65536, 4));
    a.levels.push_back(level("array", "dummy", 0, 1, 14, 14));
    a.levels.push_back(level("RF", "regfile", 512, 1, 168, 14));
    a.compute.name = "MAC";
    a.compute.instances = 168;
    a.compute.meshX = 14;
    a.compute.mac_energy_pJ = 99.0;
    a.compute.area_um2 = 99.0;
    return a;
}

} // namespace

class TestEnergyModels : public QObject {
    Q_OBJECT
private slots:
    // "table-scaled": figures follow size edits by the documented laws (hand-derived ratios).
    void tableScaledFollowsSizes()
    {
        StorageLevel sram;
        sram.technology = "SRAM";
        sram.size_words = 1024;
        sram.energy = {10.0, 8.0, 8.0, 0.5};
        sram.area_um2 = 1000.0;
        StorageLevel bigger = sram;
        bigger.size_words = 4096;  // 4x the words: sqrt 4 = 2x per access, 4x the area and leakage
        rescaleForSize(sram, bigger);
        QCOMPARE(bigger.energy.read_pJ, 20.0);
        QCOMPARE(bigger.energy.fill_pJ, 16.0);
        QCOMPARE(bigger.energy.leak_pJ, 2.0);
        QCOMPARE(bigger.area_um2, 4000.0);
        StorageLevel narrow = sram;
        narrow.word_bits = 8;      // half the bits: half per access, half the area
        rescaleForSize(sram, narrow);
        QCOMPARE(narrow.energy.read_pJ, 5.0);
        QCOMPARE(narrow.area_um2, 500.0);

        StorageLevel rf = sram;
        rf.technology = "regfile";
        rf.size_words = 12;
        StorageLevel rf2 = rf;
        rf2.size_words = 24;       // registers: linear
        rescaleForSize(rf, rf2);
        QCOMPARE(rf2.energy.read_pJ, 20.0);
        QCOMPARE(rf2.area_um2, 2000.0);

        StorageLevel dram = sram;
        dram.technology = "DRAM";
        StorageLevel dram2 = dram;
        dram2.size_words = 1 << 20;
        rescaleForSize(dram, dram2);   // DRAM keeps its figures
        QCOMPARE(dram2.energy.read_pJ, 10.0);
        StorageLevel unbounded = sram;
        unbounded.size_words.reset();
        rescaleForSize(sram, unbounded);
        QCOMPARE(unbounded.energy.read_pJ, 10.0);
        QVERIFY(isKnownEnergyModel("table-scaled"));
        Architecture a;
        a.levels = {sram};
        applyEnergyModel(a, "table-scaled");  // the given figures, at the given sizes
        QCOMPARE(a.levels[0].energy.read_pJ, 10.0);

        StorageLevel fixed = sram;  // a per-level override: the figures stay as given
        fixed.energyFixed = true;
        StorageLevel fixedBigger = fixed;
        fixedBigger.size_words = 4096;
        rescaleForSize(fixed, fixedBigger);
        QCOMPARE(fixedBigger.energy.read_pJ, 10.0);
        QCOMPARE(fixedBigger.area_um2, 1000.0);
    }

    // energy_fixed under an analytical model: that level keeps its figures, the others get the
    // model's (the GLB's 18.30912 pJ of applyThistle below).
    void fixedLevelOverridesTheModel()
    {
        Architecture a = eyerissBaseline();
        a.levels[3].energy = {1.5, 1.25, 1.25, 0.0};
        a.levels[3].area_um2 = 77.0;
        a.levels[3].energyFixed = true;
        applyEnergyModel(a, "thistle-45nm");
        QCOMPARE(a.levels[3].energy.read_pJ, 1.5);
        QCOMPARE(a.levels[3].energy.fill_pJ, 1.25);
        QCOMPARE(a.levels[3].area_um2, 77.0);
        QVERIFY(close(a.levels[1].energy.read_pJ, 18.30912));
    }

    void interstellarTableValues_data();
    void interstellarTableValues();
    void interstellarConstants();
    void interstellarInterpolation();
    void interstellarClamping();
    void thistleFormulas();
    void applyInterstellar();
    void applyInterstellarWordBits();
    void applyThistle();
    void applyTableIsNoOp();
    void unknownModel();
    void badLevels();
};

void TestEnergyModels::interstellarTableValues_data()
{
    QTest::addColumn<bool>("rf");
    QTest::addColumn<double>("sizeBytes");
    QTest::addColumn<double>("energy");
    // Table 3, left column: RF size -> pJ per 16-bit access.
    QTest::newRow("RF 16 B") << true << 16.0 << 0.03;
    QTest::newRow("RF 32 B") << true << 32.0 << 0.06;
    QTest::newRow("RF 64 B") << true << 64.0 << 0.12;
    QTest::newRow("RF 128 B") << true << 128.0 << 0.24;
    QTest::newRow("RF 256 B") << true << 256.0 << 0.48;
    QTest::newRow("RF 512 B") << true << 512.0 << 0.96;
    // Table 3, right column: SRAM size -> pJ per 16-bit access.
    QTest::newRow("SRAM 32 KB") << false << 32 * KB << 6.0;
    QTest::newRow("SRAM 64 KB") << false << 64 * KB << 9.0;
    QTest::newRow("SRAM 128 KB") << false << 128 * KB << 13.5;
    QTest::newRow("SRAM 256 KB") << false << 256 * KB << 20.25;
    QTest::newRow("SRAM 512 KB") << false << 512 * KB << 30.375;
}

void TestEnergyModels::interstellarTableValues()
{
    QFETCH(bool, rf);
    QFETCH(double, sizeBytes);
    QFETCH(double, energy);
    const auto kind = rf ? MemoryKind::RegisterFile : MemoryKind::SRAM;
    // Exactly the printed value, not merely close.
    QCOMPARE(interstellar28nm::accessEnergy_pJ(kind, sizeBytes), energy);
    const auto& table = rf ? interstellar28nm::registerFileTable() : interstellar28nm::sramTable();
    bool found = false;
    for (const auto& e : table)
        if (e.size_bytes == sizeBytes) {
            QCOMPARE(e.energy_pJ, energy);
            found = true;
        }
    QVERIFY(found);
}

void TestEnergyModels::interstellarConstants()
{
    // Table 3, bottom rows: MAC 0.075 pJ, Hop 0.035 pJ, DRAM 200 pJ.
    QCOMPARE(interstellar28nm::kMacEnergy_pJ, 0.075);
    QCOMPARE(interstellar28nm::kHopEnergy_pJ, 0.035);
    QCOMPARE(interstellar28nm::kDramEnergy_pJ, 200.0);
    QCOMPARE(interstellar28nm::accessEnergy_pJ(MemoryKind::DRAM, 1.0), 200.0);
    QCOMPARE(interstellar28nm::registerFileTable().size(), std::size_t(6));
    QCOMPARE(interstellar28nm::sramTable().size(), std::size_t(5));
}

void TestEnergyModels::interstellarInterpolation()
{
    // Power law between neighbouring entries (linear in log-size vs log-energy).
    // RF 24 B lies between 16 B (0.03) and 32 B (0.06); exponent = ln(2)/ln(2) = 1, so
    // e = 0.03 * (24/16)^1 = 0.045 pJ.
    QVERIFY(close(interstellar28nm::accessEnergy_pJ(MemoryKind::RegisterFile, 24.0), 0.045));
    // RF 384 B (Eyeriss' 192-word filter spad): between 256 B (0.48) and 512 B (0.96),
    // e = 0.48 * 1.5 = 0.72 pJ.
    QVERIFY(close(interstellar28nm::accessEnergy_pJ(MemoryKind::RegisterFile, 384.0), 0.72));
    // SRAM at the geometric mean of 32 KB and 64 KB, sqrt(32*64) KB = 45.2548 KB: a power law
    // through (32 KB, 6) and (64 KB, 9) gives the geometric mean of the energies,
    // sqrt(6 * 9) = sqrt(54) = 7.34846922834953 pJ.
    QVERIFY(close(interstellar28nm::accessEnergy_pJ(MemoryKind::SRAM, std::sqrt(32.0 * 64.0) * KB),
                  7.34846922834953, 1e-12));
    // SRAM 48 KB: exponent = ln(9/6)/ln(2) = log2(1.5) = 0.5849625; (48/32)^0.5849625 =
    // 1.5^0.5849625 = exp(0.5849625 * 0.4054651) = exp(0.2371802) = 1.2676717;
    // e = 6 * 1.2676717 = 7.6060300 pJ.
    QVERIFY(close(interstellar28nm::accessEnergy_pJ(MemoryKind::SRAM, 48 * KB), 7.60603, 1e-6));
    // 384 KB between 256 KB (20.25) and 512 KB (30.375): 20.25 * 1.2676717 = 25.6703520 pJ.
    QVERIFY(close(interstellar28nm::accessEnergy_pJ(MemoryKind::SRAM, 384 * KB), 25.670352, 1e-6));
    // Monotone between entries.
    double prev = 0.0;
    for (double s = 16.0; s <= 512.0; s += 8.0) {
        const double e = interstellar28nm::accessEnergy_pJ(MemoryKind::RegisterFile, s);
        QVERIFY(e >= prev);
        prev = e;
    }
}

void TestEnergyModels::interstellarClamping()
{
    // Outside the table the nearest end entry is used.
    QCOMPARE(interstellar28nm::accessEnergy_pJ(MemoryKind::RegisterFile, 2.0), 0.03);
    QCOMPARE(interstellar28nm::accessEnergy_pJ(MemoryKind::RegisterFile, 4096.0), 0.96);
    QCOMPARE(interstellar28nm::accessEnergy_pJ(MemoryKind::SRAM, 1 * KB), 6.0);
    QCOMPARE(interstellar28nm::accessEnergy_pJ(MemoryKind::SRAM, 4096 * KB), 30.375);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, interstellar28nm::accessEnergy_pJ(MemoryKind::SRAM, 0.0));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, interstellar28nm::accessEnergy_pJ(MemoryKind::RegisterFile, -1.0));
}

void TestEnergyModels::thistleFormulas()
{
    // Table III constants.
    QCOMPARE(thistle45nm::kAreaMac_um2, 1239.5);
    QCOMPARE(thistle45nm::kAreaRegister_um2, 19.874);
    QCOMPARE(thistle45nm::kAreaSramWord_um2, 6.806);
    QCOMPARE(thistle45nm::kMacEnergy_pJ, 2.2);
    QCOMPARE(thistle45nm::kSigmaR_pJ_per_word, 9.06719e-3);
    QCOMPARE(thistle45nm::kDramEnergy_pJ, 128.0);
    // sigma_S: printed "17.88", read as fJ (see EnergyModels.h) = 0.01788 pJ.
    QCOMPARE(thistle45nm::kSigmaS_pJ_per_sqrt_word, 0.01788);

    // eps_R = sigma_R * R. R = 512: 9.06719e-3 * 512 = 4.64240128 pJ.
    QVERIFY(close(thistle45nm::registerFileEnergy_pJ(512), 4.64240128));
    // R = 16: 9.06719e-3 * 16 = 0.14507504 pJ.
    QVERIFY(close(thistle45nm::registerFileEnergy_pJ(16), 0.14507504));
    // eps_S = sigma_S * sqrt(S). S = 65536 words (128 KB of 16-bit words): sqrt = 256,
    // 0.01788 * 256 = 4.57728 pJ.
    QVERIFY(close(thistle45nm::sramEnergy_pJ(65536), 4.57728));
    // S = 16384: sqrt = 128, 0.01788 * 128 = 2.28864 pJ.
    QVERIFY(close(thistle45nm::sramEnergy_pJ(16384), 2.28864));
    // Doubling R doubles eps_R; quadrupling S doubles eps_S.
    QVERIFY(close(thistle45nm::registerFileEnergy_pJ(1024), 2 * thistle45nm::registerFileEnergy_pJ(512)));
    QVERIFY(close(thistle45nm::sramEnergy_pJ(4 * 4096), 2 * thistle45nm::sramEnergy_pJ(4096)));

    // Eq. (5) on the Eyeriss baseline (168 PEs, 512 registers/PE, 64 Ki SRAM words):
    // (19.874 * 512 + 1239.5) * 168 + 6.806 * 65536
    //   = (10175.488 + 1239.5) * 168 + 446038.016
    //   = 11414.988 * 168 + 446038.016 = 1917717.984 + 446038.016 = 2363756.0 um^2.
    QVERIFY(close(thistle45nm::totalArea_um2(512, 168, 65536), 2363756.0));
}

void TestEnergyModels::applyInterstellar()
{
    Architecture a = eyerissBaseline();
    a.levels[3].size_words = 16;  // 16 x 16-bit = 32 B register file
    applyEnergyModel(a, "interstellar-28nm");
    // DRAM: 200 pJ per word x block 4 = 800 pJ per vector access.
    QCOMPARE(a.levels[0].energy.read_pJ, 800.0);
    QCOMPARE(a.levels[0].energy.fill_pJ, 800.0);
    QCOMPARE(a.levels[0].energy.update_pJ, 800.0);
    QCOMPARE(a.levels[0].energy.leak_pJ, 0.0);
    // GLB: 65536 x 2 B = 128 KB -> 13.5 pJ x block 4 = 54 pJ.
    QCOMPARE(a.levels[1].energy.read_pJ, 54.0);
    QCOMPARE(a.levels[1].energy.fill_pJ, 54.0);
    QCOMPARE(a.levels[1].energy.update_pJ, 54.0);
    QCOMPARE(a.levels[1].energy.leak_pJ, 0.0);
    // Spatial-only level: nothing.
    QCOMPARE(a.levels[2].energy.read_pJ, 0.0);
    QCOMPARE(a.levels[2].energy.leak_pJ, 0.0);
    // RF: 32 B -> 0.06 pJ x block 1.
    QCOMPARE(a.levels[3].energy.read_pJ, 0.06);
    QCOMPARE(a.levels[3].energy.update_pJ, 0.06);
    // MAC 0.075 pJ.
    QCOMPARE(a.compute.mac_energy_pJ, 0.075);
    // Areas are not given by the paper: untouched.
    QCOMPARE(a.levels[1].area_um2, 7.0);
    QCOMPARE(a.compute.area_um2, 99.0);
}

void TestEnergyModels::applyInterstellarWordBits()
{
    Architecture a = eyerissBaseline();
    // 131072 8-bit words = 128 KB; a byte access costs 8/16 of a 16-bit one:
    // 13.5 * 0.5 = 6.75 pJ per word, x block 8 = 54 pJ per vector.
    a.levels[1].word_bits = 8;
    a.levels[1].size_words = 131072;
    a.levels[1].block_size = 8;
    // 32-bit DRAM words: 200 * 2 = 400 pJ per word, x block 2 = 800 pJ per vector.
    a.levels[0].word_bits = 32;
    a.levels[0].block_size = 2;
    applyEnergyModel(a, "interstellar-28nm");
    QCOMPARE(a.levels[1].energy.read_pJ, 54.0);
    QCOMPARE(a.levels[0].energy.read_pJ, 800.0);
}

void TestEnergyModels::applyThistle()
{
    Architecture a = eyerissBaseline();
    applyEnergyModel(a, "thistle-45nm");
    // DRAM: 128 pJ x block 4 = 512 pJ per vector access (the 512 pJ of Accelergy's 64-bit DRAM).
    QCOMPARE(a.levels[0].energy.read_pJ, 512.0);
    QCOMPARE(a.levels[0].energy.fill_pJ, 512.0);
    QCOMPARE(a.levels[0].energy.update_pJ, 512.0);
    QCOMPARE(a.levels[0].energy.leak_pJ, 0.0);
    QCOMPARE(a.levels[0].area_um2, 0.0);
    // GLB: 0.01788 * sqrt(65536) = 4.57728 pJ per word x block 4 = 18.30912 pJ;
    // area 6.806 * 65536 = 446038.016 um^2.
    QVERIFY(close(a.levels[1].energy.read_pJ, 18.30912));
    QVERIFY(close(a.levels[1].energy.fill_pJ, 18.30912));
    QVERIFY(close(a.levels[1].energy.update_pJ, 18.30912));
    QCOMPARE(a.levels[1].energy.leak_pJ, 0.0);
    QVERIFY(close(a.levels[1].area_um2, 446038.016));
    // Spatial-only level: no energy, no area.
    QCOMPARE(a.levels[2].energy.read_pJ, 0.0);
    QCOMPARE(a.levels[2].area_um2, 0.0);
    // RF of 512 registers: 9.06719e-3 * 512 = 4.64240128 pJ x block 1;
    // area 19.874 * 512 = 10175.488 um^2 per PE.
    QVERIFY(close(a.levels[3].energy.read_pJ, 4.64240128));
    QVERIFY(close(a.levels[3].energy.update_pJ, 4.64240128));
    QVERIFY(close(a.levels[3].area_um2, 10175.488));
    // MAC: 2.2 pJ, 1239.5 um^2.
    QCOMPARE(a.compute.mac_energy_pJ, 2.2);
    QCOMPARE(a.compute.area_um2, 1239.5);
    // Whole chip (per-instance areas x instances) equals Eq. (5): 2363756.0 um^2 (see above).
    double area = a.compute.area_um2 * double(a.compute.instances);
    for (const auto& l : a.levels) area += l.area_um2 * double(l.instances);
    QVERIFY(close(area, 2363756.0));
}

void TestEnergyModels::applyTableIsNoOp()
{
    Architecture a = eyerissBaseline();
    applyEnergyModel(a, "table");
    QCOMPARE(a.levels[1].energy.read_pJ, 1.0);
    QCOMPARE(a.levels[1].energy.fill_pJ, 2.0);
    QCOMPARE(a.levels[1].energy.update_pJ, 3.0);
    QCOMPARE(a.levels[1].energy.leak_pJ, 4.0);
    QCOMPARE(a.compute.mac_energy_pJ, 99.0);
    QVERIFY(isKnownEnergyModel("table"));
    QVERIFY(isKnownEnergyModel("interstellar-28nm"));
    QVERIFY(isKnownEnergyModel("thistle-45nm"));
    QVERIFY(!isKnownEnergyModel("accelergy"));
}

void TestEnergyModels::unknownModel()
{
    Architecture a = eyerissBaseline();
    try {
        applyEnergyModel(a, "cacti-7nm");
        QFAIL("expected NestorError");
    } catch (const NestorError& e) {
        QCOMPARE(e.diagnostics().size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(e.diagnostics()[0].field), QStringLiteral("architecture.energy_model"));
        QVERIFY(QString::fromStdString(e.diagnostics()[0].message).contains("cacti-7nm"));
    }
    // Unchanged after the failure.
    QCOMPARE(a.levels[1].energy.read_pJ, 1.0);
}

void TestEnergyModels::badLevels()
{
    {
        Architecture a = eyerissBaseline();
        a.levels[1].size_words.reset();  // unbounded SRAM
        try {
            applyEnergyModel(a, "thistle-45nm");
            QFAIL("expected NestorError");
        } catch (const NestorError& e) {
            QCOMPARE(QString::fromStdString(e.diagnostics()[0].field), QStringLiteral("architecture.levels[1].size_words"));
        }
        QCOMPARE(a.levels[0].energy.read_pJ, 1.0);  // nothing applied
    }
    {
        Architecture a = eyerissBaseline();
        a.levels[3].technology = "flipflops";
        try {
            applyEnergyModel(a, "interstellar-28nm");
            QFAIL("expected NestorError");
        } catch (const NestorError& e) {
            QCOMPARE(QString::fromStdString(e.diagnostics()[0].field), QStringLiteral("architecture.levels[3].technology"));
        }
    }
}

QTEST_GUILESS_MAIN(TestEnergyModels)
#include "tst_energymodels.moc"
