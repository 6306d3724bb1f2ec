// The Nestor workbench: everything lives in nestor_app; this only starts it.
#include "GuiLauncher.h"

int main(int argc, char* argv[])
{
    return nestor::app::launchGui(argc, argv);
}
