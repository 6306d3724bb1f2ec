# GUI tests: every tests/widgets/tst_*.cpp is one Qt Test executable linking the app and
# widget libraries, run offscreen. Included from tests/CMakeLists.txt when the GUI is built.
file(GLOB NESTOR_WIDGET_TESTS CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/tst_*.cpp)
foreach(src ${NESTOR_WIDGET_TESTS})
  get_filename_component(name ${src} NAME_WE)
  add_executable(${name} ${src})
  set_target_properties(${name} PROPERTIES AUTOMOC ON)
  target_link_libraries(${name} PRIVATE nestor_app nestor_widgets Qt6::Test)
  target_include_directories(${name} PRIVATE ${CMAKE_CURRENT_LIST_DIR}/..)  # support/
  target_compile_definitions(${name} PRIVATE ${NESTOR_TEST_DEFINITIONS})
  add_test(NAME ${name} COMMAND ${name})
  set_tests_properties(${name} PROPERTIES LABELS "gui" ENVIRONMENT "QT_QPA_PLATFORM=offscreen")
endforeach()
