// circlesim — a 2D rigid-circle simulator built to compare iterative contact solvers.
// The one header a user includes.
#ifndef CIRCLESIM_H
#define CIRCLESIM_H

#include "circlesim/base.h"
#include "circlesim/lcp.h"
#include "circlesim/solver.h"
#include "circlesim/wall.h"
#include "circlesim/world.h"
#include "circlesim/scene.h"
#include "circlesim/query.h"
#include "circlesim/events.h"
#include "circlesim/joint.h"
#include "circlesim/active_set.h"

#endif
