# sbx_units(TARGET DIR NAME...): adds DIR/NAME.cpp and DIR/NAME.h to TARGET for each NAME, the
# pair a class lives in ("." for the target's own folder). Other files are listed as they are.
function(sbx_units target dir)
  foreach(name IN LISTS ARGN)
    if(dir STREQUAL ".")
      target_sources(${target} PRIVATE ${name}.cpp ${name}.h)
    else()
      target_sources(${target} PRIVATE ${dir}/${name}.cpp ${dir}/${name}.h)
    endif()
  endforeach()
endfunction()
