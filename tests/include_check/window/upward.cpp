// A window/ file that reaches up into the command line: the include check must refuse it.
#include "window/panel.hpp"
#include <vector>
#include "cli/commands.hpp"
