// File > Import ONNX Network… as an edit (app/gui/document/OnnxImportCommand.h): the imported
// layers and network are one undo step that marks the project modified; undo restores it; a
// taken network name is refused without touching the project. The model is built in memory
// by the test encoder (tests/support/OnnxEncoder.h).
#include "OnnxImportCommand.h"
#include "ProjectDocument.h"
#include "io/ProjectYaml.h"
#include "support/OnnxEncoder.h"

#include <QTest>
#include <QUndoStack>

using namespace nestor;
using namespace onnxenc;

class TestOnnxImportCommand : public QObject {
    Q_OBJECT
private slots:
    void importIsOneUndoStep();
};

void TestOnnxImportCommand::importIsOneUndoStep()
{
    Graph g;
    g.name = "tiny";
    g.input("x", {1, 3, 8, 8});
    g.weight("w", {4, 3, 3, 3});
    g.nodes.push_back(node("Conv", "conv1", {"x", "w"}, {"y"}, {attrInts("pads", {1, 1, 1, 1})}));
    const Bytes b = g.model();
    const OnnxImportResult imported =
        importOnnxModel(parseOnnxModel(reinterpret_cast<const std::uint8_t*>(b.data()), b.size(), "mem.onnx"), {});

    app::ProjectDocument doc;
    doc.reset(readProject(NESTOR_EXAMPLES_DIR "/alexnet.yaml"), {});
    const std::size_t workloads = doc.project().workloads.size(), networks = doc.project().networks.size();
    QVERIFY(!doc.isModified());
    QCOMPARE(app::commands::addImportedNetwork(doc, imported), QString());
    QCOMPARE(doc.project().workloads.size(), workloads + 1);
    QVERIFY(doc.project().findNetwork("tiny"));
    QVERIFY(doc.project().findWorkload("conv1_2"));  // conv1 is AlexNet's
    QVERIFY(doc.isModified());
    QVERIFY(!app::commands::addImportedNetwork(doc, imported).isEmpty());  // "tiny" is taken now
    QCOMPARE(doc.undoStack()->count(), 1);
    doc.undoStack()->undo();
    QCOMPARE(doc.project().workloads.size(), workloads);
    QCOMPARE(doc.project().networks.size(), networks);
    QVERIFY(!doc.isModified());
    doc.undoStack()->redo();
    QVERIFY(doc.project().findNetwork("tiny"));
}

QTEST_MAIN(TestOnnxImportCommand)
#include "tst_onnx_import_command.moc"
