// Nothing: physarum_python_libraries (python/libraries.cmake) is a module made of the libraries the
// Python module links and no code of its own, so that its link command says what they need.
