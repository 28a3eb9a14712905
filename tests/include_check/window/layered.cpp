// A window/ file that includes only its own folder, its declared dependencies and the system's.
#include <vector>

#include "imgui_like/header.h"
#include "run/run.hpp"
#include "sim/backend.hpp"
#include "window/panel.hpp"
