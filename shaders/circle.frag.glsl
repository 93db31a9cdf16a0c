#version 330 core
// Signed-distance disc: coverage from the distance to the rim in pixels (one-pixel ramp), an
// outline band inside the rim and a radius line from the centre so that rotation is visible.
in vec2 v_local;
flat in float v_radius;
flat in vec2 v_dir;
flat in vec4 v_fill;

uniform float u_pixel;           // world units per pixel
uniform vec4 u_outline;          // outline and radius-line colour
uniform float u_outline_px;      // outline width in pixels (0: none)
uniform float u_radius_line_px;  // radius line width in pixels (0: none)

out vec4 o_color;

void main()
{
    float d = (length(v_local) - v_radius) / u_pixel; // < 0 inside, in pixels
    float cover = clamp(0.5 - d, 0.0, 1.0);
    if (cover <= 0.0)
    {
        discard;
    }
    float ink = 0.0;
    if (u_outline_px > 0.0)
    {
        float half_w = 0.5 * u_outline_px;
        ink = clamp(half_w + 0.5 - abs(d + half_w), 0.0, 1.0);
    }
    if (u_radius_line_px > 0.0)
    {
        float t = clamp(dot(v_local, v_dir), 0.0, v_radius);
        float ld = length(v_local - t * v_dir) / u_pixel;
        ink = max(ink, clamp(0.5 * u_radius_line_px + 0.5 - ld, 0.0, 1.0));
    }
    vec3 rgb = mix(v_fill.rgb, u_outline.rgb, ink * u_outline.a);
    float alpha = max(v_fill.a, ink * u_outline.a) * cover;
    o_color = vec4(rgb, alpha);
}
