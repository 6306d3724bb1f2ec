#pragma once
// Starts the workbench: QApplication, command line, main window, optional screenshot run.
namespace nestor::app {

// Exit codes: 0 ok, 1 usage error, 2 project or mapping could not be opened (with
// --screenshot only; interactively the window reports it), 3/4 see ScreenshotController.
int launchGui(int& argc, char** argv);

} // namespace nestor::app
