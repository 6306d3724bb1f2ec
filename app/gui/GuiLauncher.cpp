#include "GuiLauncher.h"

#include "CommandLineOptions.h"
#include "MainWindow.h"
#include "ScreenshotController.h"

#include <QApplication>
#include <QTextStream>

#include <memory>

namespace nestor::app {

namespace {
constexpr int kUsageError = 1;
constexpr int kOpenError = 2;
} // namespace

int launchGui(int& argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Nestor"));
    QApplication::setApplicationName(QStringLiteral("nestor"));
    QApplication::setApplicationDisplayName(QStringLiteral("Nestor"));
    QApplication::setApplicationVersion(QStringLiteral(NESTOR_VERSION));

    QString error;
    const std::optional<CommandLineOptions> options = CommandLineOptions::parse(QApplication::arguments(), &error);
    if (!options) {
        QTextStream(stderr) << "nestor: " << error << "\nTry 'nestor --help'.\n";
        return kUsageError;
    }
    const bool screenshot = !options->screenshotPath.isEmpty();

    MainWindow window;
    if (!screenshot) window.usePersistentSettings();
    std::unique_ptr<ScreenshotController> shooter;
    if (screenshot) shooter = std::make_unique<ScreenshotController>(&window, options->screenshotPath);
    window.show();

    if (!options->projectPath.isEmpty()) {
        bool opened = window.openProject(options->projectPath);
        if (opened && !options->mapping.isEmpty())
            opened = window.selectMapping(options->mapping);
        else if (opened)
            window.selectDefaultMapping();  // a project without mappings is fine
        if (!opened && screenshot) {
            QTextStream(stderr) << "nestor: " << window.lastError() << "\n";
            return kOpenError;
        }
    }
    if (shooter) shooter->start();
    return app.exec();
}

} // namespace nestor::app
