// A window/ file that reaches up into the command line: the include check must refuse it.
#include <vector>

#include "cli/commands.hpp"
#include "window/panel.hpp"
