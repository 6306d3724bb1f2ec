#pragma once
// Starts the workbench: QApplication, command line, main window, optional screenshot run.
#include "RecoveryOffer.h"

namespace nestor::app {

class MainWindow;
struct CommandLineOptions;

// Exit codes: 0 ok, 1 usage error, 2 project or mapping could not be opened (with
// --screenshot only; interactively the window reports it), 3/4 see ScreenshotController.
int launchGui(int& argc, char** argv);

// What launchGui does once the window is shown: opens the project and mapping of the command
// line, shows the view, then (not with --screenshot) offers the recovery entries of sessions
// that ended without saving to `choose`, with or without a project argument. False if the
// project or mapping could not be opened.
bool startWorkbench(MainWindow& window, const CommandLineOptions& options, const RecoveryChooser& choose);

// The chooser `--recover` asks for: a dialog over `window` for "ask", else a fixed answer.
RecoveryChooser recoveryChooserFor(const CommandLineOptions& options, MainWindow& window);

} // namespace nestor::app
