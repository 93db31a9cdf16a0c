#version 330 core
// One instanced quad per circle (circles.c): the quad covers the disc plus two pixels of margin so
// the antialiased edge is never clipped.
layout(location = 0) in vec2 a_corner; // unit quad corner in [-1, 1]^2
layout(location = 1) in vec4 a_body;   // centre x, centre y, radius, angle (world units, radians)
layout(location = 2) in vec4 a_fill;   // fill colour

uniform mat4 u_view;
uniform float u_pixel; // world units per framebuffer pixel

out vec2 v_local;
flat out float v_radius;
flat out vec2 v_dir;
flat out vec4 v_fill;

void main()
{
    float extent = a_body.z + 2.0 * u_pixel;
    v_local = a_corner * extent;
    v_radius = a_body.z;
    v_dir = vec2(cos(a_body.w), sin(a_body.w));
    v_fill = a_fill;
    gl_Position = u_view * vec4(a_body.xy + v_local, 0.0, 1.0);
}
