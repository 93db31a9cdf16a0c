#version 330 core
// Thick antialiased lines and filled triangles (lines.c). The CPU expands each segment into a quad
// one pixel wider than the line on each side; a_aa carries the signed distance across the line and
// the half width, both in pixels, so the fragment shader can ramp the edge over one pixel.
layout(location = 0) in vec2 a_pos;
layout(location = 1) in vec4 a_color;
layout(location = 2) in vec2 a_aa; // (distance across the line, half width), pixels

uniform mat4 u_view;

out vec4 v_color;
out vec2 v_aa;

void main()
{
    v_color = a_color;
    v_aa = a_aa;
    gl_Position = u_view * vec4(a_pos, 0.0, 1.0);
}
