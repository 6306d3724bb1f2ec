#pragma once
// nestor [PROJECT.yaml] [--mapping NAME] [--view NAME] [--recover ACTION] [--screenshot OUT.png] [--size WxH]
#include <QSize>
#include <QString>
#include <QStringList>

namespace nestor::app {

struct CommandLineOptions {
    enum class Action { Run, ShowHelp, ShowVersion, UsageError };

    Action action = Action::Run;
    QString message;         // help text, version line or usage error
    QString projectPath;
    QString mapping;         // empty = the project's default
    QString screenshotPath;  // non-empty: render after the evaluation, save, exit
    QString view;            // one of viewNames(); empty = mapping
    QString recover = QStringLiteral("ask");  // one of recoverActions(): unsaved changes of ended sessions
    QSize windowSize;        // --size: the window for a screenshot (invalid = the default 1760 x 1000)

    static QStringList viewNames();
    static QStringList recoverActions();  // ask, restore, keep, discard
    static bool parseWindowSize(const QString& text, QSize* size);  // "1366x768"

    // Needs no QCoreApplication, so --help and --version work without a display.
    static CommandLineOptions parse(const QStringList& arguments);
};

} // namespace nestor::app
